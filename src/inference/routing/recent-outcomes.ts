// The upstream attempts of the last `windowMs` per endpoint (outcome and latency), for the live
// endpoint health the console shows. Samples are kept in arrival order and dropped once older than
// the window; an endpoint keeps at most `maxSamples` (the newest), so memory stays bounded under load.
import type { Clock } from '../../domain/clock.ts'
import type { AttemptRecord } from '../../domain/inference/attempt-record.ts'

interface Sample {
  readonly at: number
  readonly ok: boolean
  readonly latencyMs: number
}

interface Series {
  readonly provider: string
  readonly model: string
  samples: Sample[]
}

export interface OutcomeSummary {
  readonly endpointId: string
  readonly provider: string
  readonly model: string
  readonly requests: number
  readonly errors: number
  readonly latencyP50Ms: number | null
  readonly latencyP99Ms: number | null
}

export class RecentOutcomes {
  readonly #series = new Map<string, Series>()
  readonly #clock: Clock
  readonly #windowMs: number
  readonly #maxSamples: number

  constructor(clock: Clock, windowMs = 5 * 60 * 1000, maxSamples = 10_000) {
    this.#clock = clock
    this.#windowMs = windowMs
    this.#maxSamples = maxSamples
  }

  /** An attempt succeeded when the upstream answered 200. */
  record(attempt: AttemptRecord): void {
    let series = this.#series.get(attempt.endpointId)
    if (series === undefined) {
      series = { provider: attempt.provider, model: attempt.model, samples: [] }
      this.#series.set(attempt.endpointId, series)
    }
    series.samples.push({ at: this.#clock.now().getTime(), ok: attempt.status === 200, latencyMs: attempt.latencyMs })
    if (series.samples.length > this.#maxSamples * 2) series.samples = series.samples.slice(-this.#maxSamples)
  }

  /** Every endpoint with an attempt in the window; endpoints without one are forgotten. */
  summaries(): OutcomeSummary[] {
    const since = this.#clock.now().getTime() - this.#windowMs
    const result: OutcomeSummary[] = []
    for (const [endpointId, series] of this.#series) {
      const recent = series.samples.filter((sample) => sample.at > since).slice(-this.#maxSamples)
      series.samples = recent
      if (recent.length === 0) {
        this.#series.delete(endpointId)
        continue
      }
      const latencies = recent.map((sample) => sample.latencyMs).sort((a, b) => a - b)
      result.push({
        endpointId,
        provider: series.provider,
        model: series.model,
        requests: recent.length,
        errors: recent.filter((sample) => !sample.ok).length,
        latencyP50Ms: nearestRank(latencies, 0.5),
        latencyP99Ms: nearestRank(latencies, 0.99),
      })
    }
    return result
  }
}

/** The nearest-rank percentile of sorted values. */
function nearestRank(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)]!
}
