// Two gateway instances sharing one PostgreSQL database and one Redis enforce one key's limit together:
// concurrent reservations through both accounting services never pass it, and the ledger rows both
// wrote add up to the shared counters. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (CI).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { startTestGateway, bearer } from '../support/test-gateway.ts'
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { createApiKeysRepository } from '../../src/store/repositories/api-keys-repository.ts'
import { isGatewayError } from '../../src/domain/errors.ts'
import type { Reservation } from '../../src/accounting/accounting-service.ts'

const postgres = postgresTarget()
const redis = redisTarget()

async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 })
  try {
    let cursor = '0'
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000)
      cursor = next
      if (keys.length > 0) await client.del(...keys)
    } while (cursor !== '0')
  } finally {
    await client.quit()
  }
}

test('two instances enforce one key limit together', { skip: postgres.skip || redis.skip }, async () => {
  const redisKeyPrefix = `{switchyard-test:${randomUUID()}}:`
  const env = { REDIS_URL: redis.url! }
  const first = await startTestGateway({ postgresUrl: postgres.url!, env, redisKeyPrefix })
  const second = await startTestGateway({ databaseUrl: first.database.url, env, redisKeyPrefix })
  try {
    const created = await first.inject({
      method: 'POST',
      url: '/api/v1/keys',
      headers: bearer(first.adminKey),
      payload: { name: 'shared', limit: 1, limit_reset: 'daily' },
    })
    assert.equal(created.statusCode, 201)
    const { data } = created.json() as { data: { hash: string } }
    const key = await createApiKeysRepository(second.store.db).findByHash(data.hash)
    assert.ok(key !== undefined, 'the second instance sees the key the first created')

    const worstCase = 13_000_000n // $0.013: 76 fit under $1
    const instances = [first, second]
    // internals: 200 concurrent reservations of exact cost, split over both instances, without an upstream.
    const services = instances.map((instance) => instance.internals.accounting.service)
    const attempts = Array.from({ length: 200 }, (_, index) =>
      services[index % 2]!.reserve({
        key,
        generationId: `gen-two-${index}`,
        attempt: 1,
        worstCaseNano: worstCase,
        isByok: false,
      }).then(
        (reservation): [number, Reservation] | null => [index % 2, reservation],
        (error: unknown) => {
          assert.ok(isGatewayError(error) && error.status === 402, String(error))
          return null
        },
      ),
    )
    const admitted = (await Promise.all(attempts)).filter((entry) => entry !== null)
    assert.equal(admitted.length, 76)
    assert.ok(
      admitted.some(([instance]) => instance === 0) && admitted.some(([instance]) => instance === 1),
      'both instances admitted some',
    )
    await Promise.all(
      admitted.map(([instance, reservation], index) =>
        services[instance]!.settle(reservation, {
          costNano: worstCase - BigInt(index),
          model: 'acme/fast-1',
          provider: 'acme',
        }),
      ),
    )
    await Promise.all(instances.map((instance) => instance.drained()))

    const rows = await first.store.db
      .selectFrom('ledger_entries')
      .select('cost_nano')
      .where('key_hash', '=', data.hash)
      .execute()
    assert.equal(rows.length, 76)
    const ledgerTotal = rows.reduce((sum, row) => sum + BigInt(row.cost_nano), 0n)
    for (const instance of instances) {
      const view = await instance.inject({
        method: 'GET',
        url: `/api/v1/keys/${data.hash}`,
        headers: bearer(instance.adminKey),
      })
      const fields = (view.json() as { data: { usage: number; usage_daily: number; limit_remaining: number } }).data
      assert.equal(fields.usage_daily, Number(ledgerTotal) / 1e9)
      assert.equal(fields.usage, Number(ledgerTotal) / 1e9)
      assert.equal(fields.limit_remaining, Number(1_000_000_000n - ledgerTotal) / 1e9)
    }
  } finally {
    await second.close()
    await first.close()
    await deleteKeys(redis.url!, redisKeyPrefix)
  }
})
