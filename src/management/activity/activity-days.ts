// The UTC days GET /api/v1/activity covers: the last 30 completed days by default, one day with `date`,
// or `from`..`to` (inclusive; `to` defaults to the last completed day), at most a year.
import { GatewayError } from '../../domain/errors.ts'

const dayMs = 24 * 60 * 60 * 1000
const maxDays = 366

export interface ActivityDays {
  readonly fromDay: string
  readonly toDay: string
}

function parseDay(value: string, parameter: string): number {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value)
    throw new GatewayError('invalid_request', `${parameter} must be a calendar date YYYY-MM-DD (UTC), got "${value}"`)
  return time
}

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10)

export function activityDays(
  query: { readonly date?: string | undefined; readonly from?: string | undefined; readonly to?: string | undefined },
  now: Date,
): ActivityDays {
  const today = Date.parse(`${dayOf(now.getTime())}T00:00:00Z`)
  if (query.date !== undefined) {
    if (query.from !== undefined || query.to !== undefined)
      throw new GatewayError('invalid_request', 'date selects one day: pass either date or from/to, not both')
    return { fromDay: dayOf(parseDay(query.date, 'date')), toDay: query.date }
  }
  const to = query.to === undefined ? today - dayMs : parseDay(query.to, 'to')
  const from = query.from === undefined ? to - 29 * dayMs : parseDay(query.from, 'from')
  if (from > to) throw new GatewayError('invalid_request', `from (${dayOf(from)}) must not be after to (${dayOf(to)})`)
  if ((to - from) / dayMs + 1 > maxDays)
    throw new GatewayError('invalid_request', `from..to spans more than ${maxDays} days: ask for a shorter range`)
  return { fromDay: dayOf(from), toDay: dayOf(to) }
}
