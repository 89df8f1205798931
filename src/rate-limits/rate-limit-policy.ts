// Which limits apply to a request, and what a decision means on the wire. Management keys spend the
// `management` budget; every other key spends its own per-key budget and its organization's (the YAML
// defaults, on every authenticated request), and each inference call also spends the rate-limit rules
// set through the API on its key and workspace, for every model and for the call's model. Tokens per
// minute are charged in two steps: the estimated input before a call that goes to a provider (refusable;
// a response-cache hit is not charged), the rest of the actual usage after it (forced, so it delays
// later requests instead of failing this one).
import type { Config, RateLimitSetting } from '../config/config.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import { GatewayError } from '../domain/errors.ts'
import type { Clock } from '../domain/clock.ts'
import type { RateLimitBucket, RateLimitDecision, RateLimiter } from './rate-limiter.ts'
import type { RateLimitRule } from '../domain/rate-limit-rule.ts'
import { ruleBuckets } from './rule-buckets.ts'

const minute = 60_000

export type RateLimitMetricLabels = 'limit' | 'decision'

/** Where decisions are counted (the gateway's `switchyard_rate_limit_decisions_total`). */
export interface DecisionCounter {
  inc(labels: Readonly<Record<RateLimitMetricLabels, string>>): void
}

export interface RateLimitPolicyDeps {
  readonly limiter: RateLimiter
  readonly limits: Config['rate_limits']
  readonly clock: Clock
  /** Counts every decision by limit name and outcome (allowed | refused | error). */
  readonly decisions?: DecisionCounter
  /** Limiter failures (Redis down) are let through and reported here: rate limits are not money. */
  readonly onError?: (error: unknown) => void
  /** The API-set rules that apply to a key's calls to a model (its key's and its workspace's). */
  readonly rules: (key: ApiKeyRecord, model: string) => readonly RateLimitRule[]
}

/** Tokens charged up front for one call, settled against the actual usage afterwards. */
export interface TokenCharge {
  readonly buckets: readonly RateLimitBucket[]
  readonly estimated: number
}

export class RateLimitPolicy {
  readonly #deps: RateLimitPolicyDeps

  constructor(deps: RateLimitPolicyDeps) {
    this.#deps = deps
  }

  /** Counts one request; returns the headers to send, or throws `rate_limited` with them. */
  async admitRequest(key: ApiKeyRecord): Promise<Record<string, string>> {
    const buckets = key.kind === 'management' ? this.#managementBuckets(key) : this.#requestBuckets(key)
    const decision = await this.#consume(buckets, 1, false)
    return decision === null ? {} : this.#enforce(decision, 'requests')
  }

  /** Counts one inference call to `model` against the requests-per-minute rules of its key and workspace. */
  async admitCall(key: ApiKeyRecord, model: string): Promise<void> {
    const requests = ruleBuckets(this.#rulesOf(key, model), 'requests_per_minute')
    const decision = await this.#consume(requests, 1, false)
    if (decision !== null) this.#enforce(decision, 'requests')
  }

  /**
   * Charges the estimated input tokens of a call that goes to a provider (a response-cache hit does not)
   * against the tokens-per-minute budgets; throws `rate_limited` when they are over.
   */
  async chargeInput(key: ApiKeyRecord, model: string, estimatedTokens: number): Promise<TokenCharge | null> {
    const buckets = [...this.#tokenBuckets(key), ...ruleBuckets(this.#rulesOf(key, model), 'tokens_per_minute')]
    if (buckets.length === 0) return null
    const decision = await this.#consume(buckets, estimatedTokens, false)
    if (decision !== null) this.#enforce(decision, 'tokens')
    return { buckets, estimated: estimatedTokens }
  }

  #rulesOf(key: ApiKeyRecord, model: string): readonly RateLimitRule[] {
    return key.kind === 'management' ? [] : this.#deps.rules(key, model)
  }

  /** Charges what the call used beyond its estimate (never refuses; never throws). */
  async settleTokens(charge: TokenCharge, actualTokens: number): Promise<void> {
    const extra = actualTokens - charge.estimated
    if (extra > 0) await this.#consume(charge.buckets, extra, true)
  }

  async #consume(buckets: readonly RateLimitBucket[], cost: number, force: boolean): Promise<RateLimitDecision | null> {
    if (buckets.length === 0) return null
    try {
      const decision = await this.#deps.limiter.consume({ buckets, cost, force })
      if (decision !== null)
        this.#deps.decisions?.inc({
          limit: limitName(decision.bucket),
          decision: decision.allowed ? 'allowed' : 'refused',
        })
      return decision
    } catch (error) {
      this.#deps.decisions?.inc({ limit: limitName(buckets[0]!), decision: 'error' })
      this.#deps.onError?.(error)
      return null
    }
  }

  #enforce(decision: RateLimitDecision, unit: 'requests' | 'tokens'): Record<string, string> {
    const now = this.#deps.clock.now().getTime()
    const headers = {
      'x-ratelimit-limit': String(decision.bucket.limit),
      'x-ratelimit-remaining': String(decision.remaining),
      'x-ratelimit-reset': String(now + decision.resetMs),
    }
    if (decision.allowed) return headers
    const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000))
    const { bucket } = decision
    throw new GatewayError(
      'rate_limited',
      `Rate limit exceeded: ${bucket.description ?? limitName(bucket)} allows ${bucket.limit} ${unit} per minute; retry after ${seconds} s`,
      {
        headers: { ...headers, 'retry-after': String(seconds) },
        metadata: {
          limit: limitName(bucket),
          retry_after_seconds: seconds,
          ...(bucket.ruleId === undefined ? {} : { rate_limit_rule_id: bucket.ruleId }),
        },
      },
    )
  }

  #requestBuckets(key: ApiKeyRecord): RateLimitBucket[] {
    return this.#pair(key, 'requests_per_minute')
  }

  #tokenBuckets(key: ApiKeyRecord): RateLimitBucket[] {
    if (key.kind === 'management') return []
    return this.#pair(key, 'tokens_per_minute')
  }

  #pair(key: ApiKeyRecord, field: keyof RateLimitSetting): RateLimitBucket[] {
    const buckets: RateLimitBucket[] = []
    const perKey = this.#deps.limits.per_key[field]
    const perOrganization = this.#deps.limits.per_organization[field]
    if (perKey !== null) buckets.push({ id: `per_key.${field}:${key.hash}`, limit: perKey, windowMs: minute })
    if (perOrganization !== null)
      buckets.push({ id: `per_organization.${field}:${key.organizationId}`, limit: perOrganization, windowMs: minute })
    return buckets
  }

  #managementBuckets(key: ApiKeyRecord): RateLimitBucket[] {
    const limit = this.#deps.limits.management.requests_per_minute
    return limit === null ? [] : [{ id: `management.requests_per_minute:${key.hash}`, limit, windowMs: minute }]
  }
}

/** The config name of a bucket's limit (`per_key.requests_per_minute`), as messages and metrics show it. */
export function limitName(bucket: RateLimitBucket): string {
  return bucket.id.slice(0, bucket.id.indexOf(':'))
}
