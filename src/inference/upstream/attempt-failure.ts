// Why one attempt at an endpoint failed, in words an operator can act on: the /metrics fallback counter
// and generation records label each failed attempt with it. Derived from the attempt's error: its kind
// (the adapter's classification of the upstream's answer, src/providers/upstream-failure.ts) and the
// upstream's HTTP status, or the lack of one when no answer came.
import type { AttemptError } from './attempt-error.ts'

type AttemptFailure =
  | 'unreachable'
  | 'timeout'
  | 'rate_limited'
  | 'overloaded'
  | 'unavailable'
  | 'upstream_5xx'
  | 'credentials_rejected'
  | 'bad_response'
  | 'other'

export function classifyAttemptFailure(error: AttemptError): AttemptFailure {
  const status = error.upstreamStatus
  if (error.kind === 'rate_limited' || status === 429) return 'rate_limited'
  if (error.kind === 'upstream_timeout' || status === 408 || status === 504 || status === 524) return 'timeout'
  if (status === null) return 'unreachable'
  if (error.kind === 'upstream_overloaded' || status === 529) return 'overloaded'
  if (status === 401 || status === 403) return 'credentials_rejected'
  if (status === 503) return 'unavailable'
  if (status >= 500) return 'upstream_5xx'
  if (status >= 200 && status < 300) return 'bad_response'
  return 'other'
}
