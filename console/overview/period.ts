// The overview's period: the last 1, 7 or 30 UTC days, today included.
export const periods = [1, 7, 30] as const
export type PeriodDays = (typeof periods)[number]

export function readPeriod(value: string | null): PeriodDays {
  const days = Number(value)
  return periods.find((period) => period === days) ?? 7
}

/** The UTC dates of the period, oldest first (YYYY-MM-DD). */
export function periodDates(days: PeriodDays, now: Date = new Date()): string[] {
  const dates: string[] = []
  for (let back = days - 1; back >= 0; back -= 1) {
    dates.push(new Date(now.getTime() - back * 86_400_000).toISOString().slice(0, 10))
  }
  return dates
}

/** The key usage window that best matches the period (the keys API keeps daily, weekly and monthly usage). */
export function keyWindow(days: PeriodDays): 'usage_daily' | 'usage_weekly' | 'usage_monthly' {
  return days === 1 ? 'usage_daily' : days === 7 ? 'usage_weekly' : 'usage_monthly'
}

export const windowName: Record<ReturnType<typeof keyWindow>, string> = {
  usage_daily: 'this UTC day',
  usage_weekly: 'this UTC week',
  usage_monthly: 'this UTC month',
}
