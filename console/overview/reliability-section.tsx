// Error rate and p50/p99 latency over the newest generations of the period.
import { ErrorBox } from '../components/error-box.tsx'
import { StatCard } from '../components/stat-card.tsx'
import { formatMs, formatPercent } from '../format.ts'
import type { Loaded } from '../use-api.ts'
import type { GenerationStats } from './generation-stats.ts'

export function ReliabilitySection({ stats }: { stats: Loaded<GenerationStats> }) {
  if (stats.error !== null) return <ErrorBox message={`GET /api/v1/generations: ${stats.error}`} />
  const data = stats.data
  if (data === undefined) return <p class="loading">Loading generations…</p>
  const note = `over the ${data.truncated ? 'newest ' : ''}${data.sampled} generation${data.sampled === 1 ? '' : 's'}`
  const rate = data.sampled === 0 ? null : Math.min(1, data.errors / data.sampled)
  return (
    <div class="stats">
      <StatCard label="Error rate" value={formatPercent(rate)} note={note} />
      <StatCard label="Latency p50" value={formatMs(data.latencyP50)} note={note} />
      <StatCard label="Latency p99" value={formatMs(data.latencyP99)} note={note} />
    </div>
  )
}
