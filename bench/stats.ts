// Summary statistics of latency samples (milliseconds): nearest-rank percentiles over sorted samples.

export interface LatencySummary {
  readonly count: number
  readonly mean: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly max: number
}

/** The nearest-rank percentile `p` (0..100) of ascending samples; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  if (p <= 0) return sorted[0] as number
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, rank) - 1] as number
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(samples).sort()
  const values = Array.from(sorted)
  const total = values.reduce((sum, value) => sum + value, 0)
  return {
    count: values.length,
    mean: values.length === 0 ? Number.NaN : total / values.length,
    p50: percentile(values, 50),
    p90: percentile(values, 90),
    p99: percentile(values, 99),
    max: values.length === 0 ? Number.NaN : (values[values.length - 1] as number),
  }
}
