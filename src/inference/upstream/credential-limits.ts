// A pool credential's own rate limits (`requests_per_minute`, `tokens_per_minute` on a credential in
// the YAML), kept in the gateway's one rate limiter: memory on a single node, Redis GCRA shared by
// every instance when REDIS_URL is set. Before a request goes out with a credential it is counted
// against the credential's request limit and its estimated input tokens against its token limit; a
// credential over either is not used for this request (the pool tries the next one). Once the answer
// reports its usage, the tokens it used beyond the estimate (input and output) are charged to the
// token limit as well, forced, as the key and model token limits settle theirs: they delay the
// credential's next requests instead of failing this one. A limiter outage admits, as the key limits
// do: these limits only protect the provider's quota.
import type { ProviderCredential, ProviderEntry } from '../../domain/catalog.ts'
import type { RateLimitBucket, RateLimitDecision, RateLimiter } from '../../rate-limits/rate-limiter.ts'
import type { DecisionCounter } from '../../rate-limits/rate-limit-policy.ts'

const minute = 60_000

/** Why a credential was not used: which of its limits is full, and when it admits the request again. */
export type CredentialLimitField = 'requests_per_minute' | 'tokens_per_minute'

export interface CredentialRefusal {
  readonly credential: string
  readonly limit: CredentialLimitField
  /** The limit's number (requests or tokens per minute). */
  readonly allows: number
  readonly retryAfterMs: number
}

/** The estimate charged to a credential's token limit, settled against the answer's reported usage. */
export interface CredentialTokenCharge {
  readonly bucket: RateLimitBucket
  readonly estimated: number
}

/** A credential's admission: refused by one of its limits, or admitted (with its token charge, if it has a token limit). */
export type CredentialAdmission =
  { readonly refusal: CredentialRefusal } | { readonly refusal: null; readonly tokens: CredentialTokenCharge | null }

export interface CredentialLimitsDeps {
  readonly limiter: RateLimiter
  /** A limiter failure (Redis down): the credential is used as if it had room. */
  readonly onError?: (error: unknown) => void
  /** Counts every decision (the gateway's `switchyard_rate_limit_decisions_total`, limit `credential.*`). */
  readonly decisions?: DecisionCounter
}

export class CredentialLimits {
  readonly #deps: CredentialLimitsDeps

  constructor(deps: CredentialLimitsDeps) {
    this.#deps = deps
  }

  /**
   * Counts one request with `credential` (and `estimatedTokens()` input tokens, computed only when the
   * credential has a token limit): which limit refused it, or the token charge to settle afterwards.
   */
  async admit(
    provider: ProviderEntry,
    credential: ProviderCredential,
    estimatedTokens: () => number,
  ): Promise<CredentialAdmission> {
    const { requestsPerMinute, tokensPerMinute } = credential
    if (requestsPerMinute !== null) {
      const refusal = await this.#check(provider, credential, 'requests_per_minute', requestsPerMinute, 1)
      if (refusal !== null) return { refusal }
    }
    if (tokensPerMinute === null) return { refusal: null, tokens: null }
    const estimated = estimatedTokens()
    const refusal = await this.#check(provider, credential, 'tokens_per_minute', tokensPerMinute, estimated)
    if (refusal !== null) return { refusal }
    const bucket = credentialBucket(provider, credential, 'tokens_per_minute', tokensPerMinute)
    return { refusal: null, tokens: { bucket, estimated } }
  }

  /** Charges the tokens an answer used beyond its estimate (forced: never refuses; a limiter failure is reported). */
  async settleTokens(charge: CredentialTokenCharge, usedTokens: number): Promise<void> {
    const extra = usedTokens - charge.estimated
    if (!(extra > 0)) return
    try {
      await this.#deps.limiter.consume({ buckets: [charge.bucket], cost: extra, force: true })
    } catch (error) {
      this.#deps.onError?.(error)
    }
  }

  async #check(
    provider: ProviderEntry,
    credential: ProviderCredential,
    field: CredentialLimitField,
    limit: number,
    cost: number,
  ): Promise<CredentialRefusal | null> {
    const bucket = credentialBucket(provider, credential, field, limit)
    let decision: RateLimitDecision | null
    try {
      decision = await this.#deps.limiter.consume({ buckets: [bucket], cost })
    } catch (error) {
      this.#deps.decisions?.inc({ limit: `credential.${field}`, decision: 'error' })
      this.#deps.onError?.(error)
      return null
    }
    if (decision === null) return null
    this.#deps.decisions?.inc({ limit: `credential.${field}`, decision: decision.allowed ? 'allowed' : 'refused' })
    if (decision.allowed) return null
    return { credential: credential.name, limit: field, allows: limit, retryAfterMs: decision.retryAfterMs }
  }
}

/** The limiter bucket of one of a credential's limits; its id is stable across instances and restarts. */
export function credentialBucket(
  provider: ProviderEntry,
  credential: ProviderCredential,
  field: CredentialLimitField,
  limit: number,
): RateLimitBucket {
  return {
    id: `credential.${field}:${provider.slug}/${credential.name}`,
    limit,
    windowMs: minute,
    description: `credential ${credential.name} of provider ${provider.slug}`,
  }
}
