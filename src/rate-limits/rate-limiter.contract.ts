// The behaviour every RateLimiter engine must show; run by each engine's test file.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { ManualClock } from '../../test/support/manual-clock.ts'
import type { Clock } from '../domain/clock.ts'
import type { RateLimitBucket, RateLimiter } from './rate-limiter.ts'

export interface RateLimiterUnderTest {
  readonly limiter: RateLimiter
  close(): Promise<void>
}

export type RateLimiterFactory = (clock: Clock) => Promise<RateLimiterUnderTest>

const minute = 60_000

async function withLimiter(
  factory: RateLimiterFactory,
  body: (limiter: RateLimiter, clock: ManualClock) => Promise<void>,
): Promise<void> {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z')
  const { limiter, close } = await factory(clock)
  try {
    await body(limiter, clock)
  } finally {
    await close()
  }
}

let counter = 0
const bucket = (limit: number, windowMs = minute): RateLimitBucket => ({
  id: `b${++counter}-${process.pid}-${Date.now()}`,
  limit,
  windowMs,
})

export function runRateLimiterContract(
  name: string,
  factory: RateLimiterFactory,
  options: { skip?: string | false } = {},
): void {
  describe(`RateLimiter contract: ${name}`, { skip: options.skip ?? false }, () => {
    test('admits a burst of exactly the limit, then refuses with the wait until one more fits', () =>
      withLimiter(factory, async (limiter) => {
        const b = bucket(3)
        for (let i = 0; i < 3; i++) assert.equal((await limiter.consume({ buckets: [b], cost: 1 }))?.allowed, true)
        const refused = await limiter.consume({ buckets: [b], cost: 1 })
        assert.deepEqual(refused, { allowed: false, bucket: b, remaining: 0, resetMs: minute, retryAfterMs: 20_000 })
      }))

    test('reports what is left and when the bucket is full again', () =>
      withLimiter(factory, async (limiter, clock) => {
        const b = bucket(10)
        assert.deepEqual(await limiter.consume({ buckets: [b], cost: 4 }), {
          allowed: true,
          bucket: b,
          remaining: 6,
          resetMs: 24_000,
          retryAfterMs: 0,
        })
        clock.advance(12_000)
        assert.deepEqual(await limiter.consume({ buckets: [b], cost: 1 }), {
          allowed: true,
          bucket: b,
          remaining: 7,
          resetMs: 18_000,
          retryAfterMs: 0,
        })
      }))

    test('refills at limit per window: after the wait the refused request passes', () =>
      withLimiter(factory, async (limiter, clock) => {
        const b = bucket(2)
        await limiter.consume({ buckets: [b], cost: 2 })
        const refused = await limiter.consume({ buckets: [b], cost: 1 })
        assert.equal(refused?.allowed, false)
        clock.advance(refused!.retryAfterMs - 1)
        assert.equal((await limiter.consume({ buckets: [b], cost: 1 }))?.allowed, false)
        clock.advance(1)
        assert.equal((await limiter.consume({ buckets: [b], cost: 1 }))?.allowed, true)
      }))

    test('charges every bucket or none: a refusal by one leaves the other untouched, and names it', () =>
      withLimiter(factory, async (limiter) => {
        const key = bucket(5)
        const organization = bucket(1)
        assert.equal((await limiter.consume({ buckets: [key, organization], cost: 1 }))?.allowed, true)
        const refused = await limiter.consume({ buckets: [key, organization], cost: 1 })
        assert.equal(refused?.allowed, false)
        assert.equal(refused?.bucket, organization)
        const keyOnly = await limiter.consume({ buckets: [key], cost: 1 })
        assert.equal(keyOnly?.remaining, 3, 'the refused request did not charge the key bucket')
      }))

    test('forced charges go past the limit and delay later requests', () =>
      withLimiter(factory, async (limiter) => {
        const b = bucket(100)
        assert.equal((await limiter.consume({ buckets: [b], cost: 90 }))?.allowed, true)
        const forced = await limiter.consume({ buckets: [b], cost: 50, force: true })
        assert.equal(forced?.allowed, true)
        assert.equal(forced?.remaining, 0)
        const next = await limiter.consume({ buckets: [b], cost: 1 })
        assert.equal(next?.allowed, false)
        assert.equal(next?.retryAfterMs, 24_600)
      }))

    test('a cost above the limit is charged as the whole limit, so it can pass on a full bucket', () =>
      withLimiter(factory, async (limiter) => {
        const b = bucket(10)
        assert.equal((await limiter.consume({ buckets: [b], cost: 1_000 }))?.allowed, true)
        assert.equal((await limiter.consume({ buckets: [b], cost: 1 }))?.allowed, false)
      }))

    test('no buckets: nothing to decide', () =>
      withLimiter(factory, async (limiter) => assert.equal(await limiter.consume({ buckets: [], cost: 1 }), null)))

    test('property: over any interval of length d, admitted units <= limit + d * limit / window', () =>
      fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 20 }),
          fc.array(fc.record({ waitMs: fc.integer({ min: 0, max: 20_000 }), cost: fc.integer({ min: 0, max: 5 }) }), {
            minLength: 1,
            maxLength: 40,
          }),
          async (limit, steps) =>
            withLimiter(factory, async (limiter, clock) => {
              const b = bucket(limit)
              const admitted: { at: number; cost: number }[] = []
              for (const step of steps) {
                clock.advance(step.waitMs)
                const decision = await limiter.consume({ buckets: [b], cost: step.cost })
                if (decision?.allowed === true)
                  admitted.push({ at: clock.now().getTime(), cost: Math.min(step.cost, limit) })
              }
              for (const start of admitted) {
                for (const end of admitted) {
                  if (end.at < start.at) continue
                  const total = admitted
                    .filter((item) => item.at >= start.at && item.at <= end.at)
                    .reduce((sum, item) => sum + item.cost, 0)
                  const bound = limit + ((end.at - start.at) * limit) / minute
                  assert.ok(total <= bound + 1e-9, `admitted ${total} in ${end.at - start.at} ms with limit ${limit}`)
                }
              }
            }),
        ),
        { numRuns: 40 },
      ))
  })
}
