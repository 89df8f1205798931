import { after, test } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { ManualClock } from '../../test/support/manual-clock.ts'
import { redisTarget } from '../../test/support/test-services.ts'
import { isGatewayError } from '../domain/errors.ts'
import { RedisRateLimiter } from './redis-rate-limiter.ts'
import { runRateLimiterContract } from './rate-limiter.contract.ts'

const target = redisTarget()
let shared: Redis | undefined
const client = (): Redis =>
  (shared ??= new Redis(target.url ?? assert.fail('TEST_REDIS_URL is not set'), { maxRetriesPerRequest: 1 }))

after(async () => {
  await shared?.quit().catch(() => undefined)
})

runRateLimiterContract(
  'redis',
  async (clock) => {
    const keyPrefix = `{switchyard-test:${randomUUID()}}:`
    return {
      limiter: new RedisRateLimiter(client(), clock, { keyPrefix }),
      close: async () => {
        const keys = await client().keys(`${keyPrefix}*`)
        if (keys.length > 0) await client().del(...keys)
      },
    }
  },
  { skip: target.skip },
)

test('an unreachable Redis is reported as unavailable', async () => {
  const offline = new Redis('redis://127.0.0.1:1', {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  try {
    const limiter = new RedisRateLimiter(offline, new ManualClock('2026-11-22T12:00:00.000Z'))
    await assert.rejects(
      limiter.consume({ buckets: [{ id: 'k', limit: 1, windowMs: 1000 }], cost: 1 }),
      (error) => isGatewayError(error) && error.kind === 'unavailable',
    )
  } finally {
    offline.disconnect()
  }
})

test(
  'a bucket outlives real time that the gateway clock has not seen (Redis expires keys on its own clock)',
  { skip: target.skip },
  async () => {
    const keyPrefix = `{switchyard-test:${randomUUID()}}:`
    const clock = new ManualClock('2026-11-22T12:00:00.000Z')
    const limiter = new RedisRateLimiter(client(), clock, { keyPrefix })
    const bucket = { id: 'k', limit: 600, windowMs: 60_000 }
    try {
      assert.equal((await limiter.consume({ buckets: [bucket], cost: 1 }))?.remaining, 599)
      // 300 ms of real time is three emission intervals; the gateway's clock has not moved, so nothing refilled.
      await new Promise((resolve) => setTimeout(resolve, 300))
      assert.equal((await limiter.consume({ buckets: [bucket], cost: 1 }))?.remaining, 598)
    } finally {
      const keys = await client().keys(`${keyPrefix}*`)
      if (keys.length > 0) await client().del(...keys)
    }
  },
)
