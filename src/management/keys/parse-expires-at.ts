// `expires_at` on POST /keys: ISO 8601 in UTC with seconds (`YYYY-MM-DDTHH:MM:SSZ`, fractional seconds
// and `+00:00` allowed). Minute precision, other offsets, impossible dates and past instants are refused.
import { GatewayError } from '../../domain/errors.ts'

const accepted = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|\+00:00)$/
const minutePrecision = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})?$/
const otherOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/
const form = 'YYYY-MM-DDTHH:MM:SSZ (UTC, with seconds; fractional seconds allowed), e.g. 2030-01-31T23:59:59Z'

/** The instant as stored (ISO 8601 UTC with milliseconds), or throws invalid_request. */
export function parseExpiresAt(text: string, now: Date): string {
  const match = accepted.exec(text)
  if (match === null) {
    const reason = minutePrecision.test(text)
      ? 'has minute precision'
      : otherOffset.test(text)
        ? 'is not in UTC'
        : 'is not an ISO 8601 timestamp'
    throw new GatewayError('invalid_request', `expires_at "${text}" ${reason}: use ${form}`)
  }
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[]
  const instant = new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!))
  const fraction = match[7] === undefined ? 0 : Math.floor(Number(match[7]) * 1000)
  const isRealDate =
    instant.getUTCFullYear() === year &&
    instant.getUTCMonth() === month! - 1 &&
    instant.getUTCDate() === day &&
    instant.getUTCHours() === hour &&
    instant.getUTCMinutes() === minute &&
    instant.getUTCSeconds() === second
  if (!isRealDate)
    throw new GatewayError('invalid_request', `expires_at "${text}" is not a real date and time: use ${form}`)
  const expires = new Date(instant.getTime() + fraction)
  if (expires.getTime() <= now.getTime()) {
    throw new GatewayError(
      'invalid_request',
      `expires_at "${text}" is not in the future (now is ${now.toISOString()}): give a later instant`,
    )
  }
  return expires.toISOString()
}
