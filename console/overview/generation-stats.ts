// Error rate and latency percentiles over a sample of recent generations (the newest pages of
// GET /api/v1/generations in the period).
import type { ApiClient, Query } from '../api/api-client.ts'
import type { Generation } from '../api/types.ts'

export interface GenerationStats {
  readonly sampled: number
  /** True when the period holds more generations than were sampled. */
  readonly truncated: boolean
  /** Failed generations among the sampled ones (errors at or after the oldest sampled generation). */
  readonly errors: number
  readonly latencyP50: number | null
  readonly latencyP99: number | null
}

const pageSize = 100
const maxPages = 5

interface GenerationPage {
  readonly data: readonly Generation[]
  readonly next_cursor: string | null
}

async function collect(client: ApiClient, query: Query): Promise<{ rows: Generation[]; truncated: boolean }> {
  const rows: Generation[] = []
  let cursor: string | null = null
  for (let page = 0; page < maxPages; page += 1) {
    const answer: GenerationPage = await client.get<GenerationPage>('/api/v1/generations', {
      ...query,
      limit: pageSize,
      cursor,
    })
    rows.push(...answer.data)
    cursor = answer.next_cursor
    if (cursor === null) return { rows, truncated: false }
  }
  return { rows, truncated: true }
}

export function percentile(sorted: readonly number[], share: number): number | null {
  if (sorted.length === 0) return null
  const index = Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)
  return sorted[Math.max(0, index)]!
}

export async function loadGenerationStats(client: ApiClient, query: Query): Promise<GenerationStats> {
  const [all, failed] = await Promise.all([collect(client, query), collect(client, { ...query, status: 'error' })])
  const latencies = all.rows
    .map((generation) => generation.latency)
    .filter((latency): latency is number => latency !== null)
    .sort((a, b) => a - b)
  // When the sample stops short of the period, count the errors of the time the sample covers.
  const oldest = all.truncated ? (all.rows[all.rows.length - 1]?.created_at ?? '') : ''
  return {
    sampled: all.rows.length,
    truncated: all.truncated,
    errors: failed.rows.filter((generation) => generation.created_at >= oldest).length,
    latencyP50: percentile(latencies, 0.5),
    latencyP99: percentile(latencies, 0.99),
  }
}
