// The activity rows of a period as the overview shows them: daily series and totals.
import type { ActivityRow } from '../api/types.ts'
import type { DailyPoint } from '../components/daily-chart.tsx'

export interface ActivitySummary {
  readonly spend: readonly DailyPoint[]
  readonly requests: readonly DailyPoint[]
  readonly totalSpend: number
  readonly totalRequests: number
  readonly totalTokens: number
}

export function summarizeActivity(rows: readonly ActivityRow[], dates: readonly string[]): ActivitySummary {
  const spend = new Map(dates.map((date) => [date, 0]))
  const requests = new Map(dates.map((date) => [date, 0]))
  let totalTokens = 0
  for (const row of rows) {
    const date = row.date.slice(0, 10)
    if (!spend.has(date)) continue
    spend.set(date, spend.get(date)! + row.usage)
    requests.set(date, requests.get(date)! + row.requests)
    totalTokens += row.prompt_tokens + row.completion_tokens
  }
  const series = (values: Map<string, number>) => [...values].map(([date, value]) => ({ date, value }))
  const sum = (values: Map<string, number>) => [...values.values()].reduce((total, value) => total + value, 0)
  return {
    spend: series(spend),
    requests: series(requests),
    totalSpend: sum(spend),
    totalRequests: sum(requests),
    totalTokens,
  }
}
