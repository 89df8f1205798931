// A time bound of a listing query (`from`, `to`): an ISO 8601 date or date-time, read as UTC when it
// has no offset, returned in the stored format (`2026-11-26T00:00:00.000Z`) so it compares as text.
import { GatewayError } from '../../domain/errors.ts'

const isoPattern = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/

export function parseTimeBound(value: string | undefined, parameter: string): string | undefined {
  if (value === undefined) return undefined
  const withZone = /T.*(Z|[+-]\d{2}:\d{2})$/.test(value) || !value.includes('T') ? value : `${value}Z`
  const time = isoPattern.test(value) ? Date.parse(value.includes('T') ? withZone : `${value}T00:00:00Z`) : NaN
  if (Number.isNaN(time))
    throw new GatewayError(
      'invalid_request',
      `${parameter} must be an ISO 8601 date or date-time (e.g. 2026-11-26 or 2026-11-26T08:00:00Z), got "${value}"`,
    )
  return new Date(time).toISOString()
}

/** A 400 when both bounds are given and `from` is not before `to`. */
export function checkTimeRange(from: string | undefined, to: string | undefined): void {
  if (from !== undefined && to !== undefined && from >= to)
    throw new GatewayError('invalid_request', `from (${from}) must be before to (${to})`)
}
