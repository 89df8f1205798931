// Rate limits held in this process (single node). Buckets are forgotten once they are full again.
import type { Clock } from '../domain/clock.ts'
import {
  assertValidConsume,
  decide,
  gcraStep,
  type ConsumeRequest,
  type RateLimitDecision,
  type RateLimiter,
} from './rate-limiter.ts'

const sweepAbove = 10_000

export class MemoryRateLimiter implements RateLimiter {
  readonly #tats = new Map<string, number>()
  readonly #clock: Clock

  constructor(clock: Clock) {
    this.#clock = clock
  }

  async consume(request: ConsumeRequest): Promise<RateLimitDecision | null> {
    assertValidConsume(request)
    const now = this.#clock.now().getTime()
    if (this.#tats.size > sweepAbove) this.#sweep(now)
    const outcomes = request.buckets.map((bucket) =>
      gcraStep(this.#tats.get(bucket.id) ?? now, now, bucket, request.cost, request.force === true),
    )
    const allowed = outcomes.every((outcome) => outcome.allowed)
    if (allowed) request.buckets.forEach((bucket, index) => this.#tats.set(bucket.id, outcomes[index]!.newTat))
    return decide(request.buckets, outcomes, allowed)
  }

  get size(): number {
    return this.#tats.size
  }

  #sweep(now: number): void {
    for (const [id, tat] of this.#tats) if (tat <= now) this.#tats.delete(id)
  }
}
