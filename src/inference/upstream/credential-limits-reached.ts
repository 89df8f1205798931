// The attempt failure of a provider whose every credential is at its own rate limits (or cooling down):
// no request went upstream. It is retryable (the fallback loop moves on to the next endpoint) but not
// the endpoint's fault, so the circuit breaker does not count it and same-endpoint retries do not wait
// for it. Its Retry-After is the soonest moment one of the credentials admits the request again.
import type { ProviderEntry } from '../../domain/catalog.ts'
import { AttemptError } from './attempt-error.ts'
import type { CredentialRefusal } from './credential-limits.ts'

export class CredentialLimitsReached extends AttemptError {
  readonly refusals: readonly CredentialRefusal[]

  constructor(provider: ProviderEntry, refusals: readonly CredentialRefusal[], coolingDown: readonly string[]) {
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil(Math.min(...refusals.map((refusal) => refusal.retryAfterMs)) / 1000),
    )
    const limits = refusals.map(
      (refusal) =>
        `credential ${refusal.credential} allows ${refusal.allows} ${refusal.limit === 'requests_per_minute' ? 'requests' : 'tokens'} per minute (${refusal.limit})`,
    )
    const cooling = coolingDown.length === 0 ? '' : `; cooling down: ${coolingDown.join(', ')}`
    super(
      'rate_limited',
      `Rate limit exceeded: every credential of provider ${provider.slug} is at its own rate limit: ${limits.join('; ')}${cooling}; retry after ${retryAfterSeconds} s`,
      null,
      retryAfterSeconds,
    )
    this.refusals = refusals
  }
}
