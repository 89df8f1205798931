// Rate limits as GCRA (generic cell rate algorithm): each bucket stores one "theoretical arrival time".
// A bucket of `limit` units per `windowMs` admits a burst of up to `limit` units at once and then
// `limit / windowMs` units per millisecond; over any interval of length d it admits at most
// `limit + d * limit / windowMs` units. One consume covers several buckets (key and organization)
// atomically: all of them are charged or none is.

export interface RateLimitBucket {
  /** Stable id, e.g. `key:<hash>:requests`. */
  readonly id: string
  /** Units per window (requests or tokens); at least 1. */
  readonly limit: number
  readonly windowMs: number
  /** How a refusal names this limit, when the id's prefix says too little (an API-set rule). */
  readonly description?: string
  /** The API-set rule this bucket enforces. */
  readonly ruleId?: string
}

export interface ConsumeRequest {
  readonly buckets: readonly RateLimitBucket[]
  /** Units to charge (>= 0); more than a bucket's limit is charged as the whole limit. */
  readonly cost: number
  /** Charge even when over the limit (usage learned after the fact); never refuses. */
  readonly force?: boolean
}

export interface RateLimitDecision {
  readonly allowed: boolean
  /** The bucket that decided: the refusing one, or the one with the least room left. */
  readonly bucket: RateLimitBucket
  /** Units still admissible right now in that bucket. */
  readonly remaining: number
  /** Milliseconds until that bucket is full again (nothing charged against it). */
  readonly resetMs: number
  /** When refused: milliseconds until the same request would be admitted; 0 otherwise. */
  readonly retryAfterMs: number
}

export interface RateLimiter {
  /** Charges `cost` to every bucket, or refuses without charging any. No buckets: allowed, null decision. */
  consume(request: ConsumeRequest): Promise<RateLimitDecision | null>
}

/** One bucket's state after a (possibly refused) charge, from its theoretical arrival time. */
export interface BucketOutcome {
  readonly allowed: boolean
  readonly newTat: number
  readonly remaining: number
  readonly resetMs: number
  readonly retryAfterMs: number
}

/** The GCRA step, shared by the memory engine and mirrored line by line in the Redis script. */
export function gcraStep(
  tat: number,
  now: number,
  bucket: RateLimitBucket,
  cost: number,
  force = false,
): BucketOutcome {
  const interval = bucket.windowMs / bucket.limit
  const charged = Math.min(cost, bucket.limit)
  const base = Math.max(tat, now)
  const newTat = base + charged * interval
  const allowAt = newTat - bucket.windowMs
  const allowed = force || allowAt <= now
  const after = allowed ? newTat : base
  return {
    allowed,
    newTat,
    remaining: Math.max(0, Math.floor((bucket.windowMs - (after - now)) / interval + 1e-9)),
    resetMs: Math.max(0, Math.ceil(after - now)),
    retryAfterMs: allowed ? 0 : Math.max(1, Math.ceil(allowAt - now)),
  }
}

/** Picks the deciding bucket: the refusal with the longest wait, else the one with the least room. */
export function decide(
  buckets: readonly RateLimitBucket[],
  outcomes: readonly BucketOutcome[],
  allowed: boolean,
): RateLimitDecision | null {
  let chosen = -1
  for (let index = 0; index < outcomes.length; index++) {
    const outcome = outcomes[index]!
    if (!allowed && outcome.allowed) continue
    const best = outcomes[chosen]
    const better =
      best === undefined || (allowed ? outcome.remaining < best.remaining : outcome.retryAfterMs > best.retryAfterMs)
    if (better) chosen = index
  }
  const bucket = buckets[chosen]
  const outcome = outcomes[chosen]
  if (bucket === undefined || outcome === undefined) return null
  return {
    allowed,
    bucket,
    remaining: allowed ? outcome.remaining : 0,
    resetMs: outcome.resetMs,
    retryAfterMs: outcome.retryAfterMs,
  }
}

export function assertValidConsume(request: ConsumeRequest): void {
  if (!Number.isFinite(request.cost) || request.cost < 0)
    throw new RangeError(`rate limit cost must be a finite number >= 0, got ${request.cost}`)
  for (const bucket of request.buckets) {
    if (!Number.isInteger(bucket.limit) || bucket.limit < 1)
      throw new RangeError(`rate limit ${bucket.id} must be an integer >= 1, got ${bucket.limit}`)
    if (!Number.isFinite(bucket.windowMs) || bucket.windowMs <= 0)
      throw new RangeError(`rate limit ${bucket.id} needs a positive window`)
  }
}
