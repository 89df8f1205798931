// Spend and requests over the period (GET /api/v1/activity), with the top models by spend.
import type { ActivityRow } from '../api/types.ts'
import { DailyChart } from '../components/daily-chart.tsx'
import { ErrorBox } from '../components/error-box.tsx'
import { Ranking, rank } from '../components/ranking.tsx'
import { StatCard } from '../components/stat-card.tsx'
import { formatCount, formatUsd } from '../format.ts'
import type { Loaded } from '../use-api.ts'
import { summarizeActivity } from './activity-summary.ts'

export function ActivitySection({ activity, dates }: { activity: Loaded<readonly ActivityRow[]>; dates: string[] }) {
  if (activity.error !== null)
    return (
      <section class="card">
        <h3>Spend and requests</h3>
        <ErrorBox message={`GET /api/v1/activity: ${activity.error}`} />
      </section>
    )
  const rows = activity.data ?? []
  const summary = summarizeActivity(rows, dates)
  return (
    <>
      <div class="stats">
        <StatCard label="Spend" value={formatUsd(summary.totalSpend)} />
        <StatCard label="Requests" value={formatCount(summary.totalRequests)} />
        <StatCard label="Tokens" value={formatCount(summary.totalTokens)} />
      </div>
      <div class="charts">
        <DailyChart title="Spend per day" points={summary.spend} format={formatUsd} />
        <DailyChart title="Requests per day" points={summary.requests} format={formatCount} />
      </div>
      <Ranking
        title="Top models by spend"
        entries={rank(
          rows,
          (row) => row.model,
          (row) => row.usage,
        )}
        empty={activity.loading ? 'Loading…' : 'No spend in this period.'}
      />
    </>
  )
}
