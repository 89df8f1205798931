import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { ManualClock } from '../../test/support/manual-clock.ts'
import { redisTarget } from '../../test/support/test-services.ts'
import { isGatewayError } from '../domain/errors.ts'
import { RedisSpendCounters } from './redis-spend-counters.ts'
import { runSpendCountersContract } from './spend-counters.contract.ts'

const target = redisTarget()
const clients: Redis[] = []

function connect(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1 })
  clients.push(client)
  return client
}

after(async () => {
  await Promise.all(clients.map((client) => client.quit().catch(() => undefined)))
})

/** Every key under a prefix: SCAN must be followed until its cursor returns to 0. */
async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  // The prefix holds only hex, dashes and the hash-tag braces, none of them glob syntax.
  const found: string[] = []
  let cursor = '0'
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
    cursor = next
    found.push(...keys)
  } while (cursor !== '0')
  return found
}

async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(client, prefix)
  if (keys.length > 0) await client.del(...keys)
}

function testPrefix(): string {
  return `{switchyard-test:${randomUUID()}}:`
}

let shared: Redis | undefined
const sharedClient = (): Redis => (shared ??= connect(target.url ?? assert.fail('TEST_REDIS_URL is not set')))

runSpendCountersContract(
  'redis',
  async ({ clock, leaseMs, retentionMs }) => {
    const client = sharedClient()
    const keyPrefix = testPrefix()
    return {
      counters: new RedisSpendCounters(client, clock, { keyPrefix, leaseMs, retentionMs }),
      close: () => deleteKeys(client, keyPrefix),
    }
  },
  { skip: target.skip },
)

describe('redis spend counters', { skip: target.skip }, () => {
  test('writes give scope keys the ttl of their scope, and keep all keys under the prefix', async () => {
    const client = sharedClient()
    const keyPrefix = testPrefix()
    const counters = new RedisSpendCounters(client, new ManualClock('2026-11-22T12:00:00.000Z'), { keyPrefix })
    try {
      await counters.reserve({
        reservationId: 'a',
        scopes: [
          { id: 'key:h:usage:d:2026-11-22', limitNano: null, ttlSeconds: 3600 },
          { id: 'key:h:usage:lifetime', limitNano: null },
        ],
        amountNano: 5n,
      })
      const ttl = await client.pttl(`${keyPrefix}s:key:h:usage:d:2026-11-22`)
      assert.ok(ttl > 0 && ttl <= 3_600_000, `pttl ${ttl}`)
      assert.equal(await client.pttl(`${keyPrefix}s:key:h:usage:lifetime`), -1, 'a scope without ttl does not expire')
      const keys = await keysUnder(client, keyPrefix)
      assert.deepEqual([...new Set(keys)].sort(), [
        `${keyPrefix}leases`,
        `${keyPrefix}r:a`,
        `${keyPrefix}s:key:h:usage:d:2026-11-22`,
        `${keyPrefix}s:key:h:usage:lifetime`,
      ])
    } finally {
      await deleteKeys(client, keyPrefix)
    }
  })

  test('a finished reservation keeps only its outcome, for one hour by default', async () => {
    const client = sharedClient()
    const keyPrefix = testPrefix()
    const counters = new RedisSpendCounters(client, new ManualClock('2026-11-22T12:00:00.000Z'), { keyPrefix })
    try {
      const scopes = [{ id: 'key:h:usage:lifetime', limitNano: null }]
      await counters.reserve({ reservationId: 'settled', scopes, amountNano: 5n })
      await counters.reserve({ reservationId: 'released', scopes, amountNano: 5n })
      assert.deepEqual(Object.keys(await client.hgetall(`${keyPrefix}r:settled`)).sort(), [
        'amount',
        'forgetAt',
        'scopes',
        'state',
      ])
      await counters.settle('settled', 4n)
      await counters.release('released')
      assert.deepEqual(Object.keys(await client.hgetall(`${keyPrefix}r:settled`)).sort(), [
        'forgetAt',
        'settled',
        'state',
      ])
      assert.deepEqual(Object.keys(await client.hgetall(`${keyPrefix}r:released`)).sort(), ['forgetAt', 'state'])
      assert.deepEqual(await counters.settle('settled', 9n), { kind: 'settled', amountNano: 4n })
      const ttl = await client.pttl(`${keyPrefix}r:settled`)
      assert.ok(ttl > 3_590_000 && ttl <= 3_600_000, `pttl ${ttl}`)
    } finally {
      await deleteKeys(client, keyPrefix)
    }
  })
})

test('an unreachable Redis is reported as unavailable, so the caller fails closed', async () => {
  const client = new Redis('redis://127.0.0.1:1', {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  try {
    const counters = new RedisSpendCounters(client, new ManualClock('2026-11-22T12:00:00.000Z'))
    await assert.rejects(
      counters.reserve({ reservationId: 'a', scopes: [{ id: 'k', limitNano: 10n }], amountNano: 1n }),
      (error) => isGatewayError(error) && error.kind === 'unavailable',
    )
    await assert.rejects(counters.read(['k']), (error) => isGatewayError(error) && error.kind === 'unavailable')
  } finally {
    client.disconnect()
  }
})
