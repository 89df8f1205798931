// Two gateway instances sharing one PostgreSQL database and one Redis enforce one key's limit together:
// concurrent chat completions through both (against one fake upstream whose pricing makes each reservation
// and each settled cost exactly $0.013) never pass it, and the ledger rows both wrote add up to the shared
// counters. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (CI).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { startTestGateway, bearer } from '../support/test-gateway.ts'
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { startFakeUpstream } from '../fake-upstreams/fake-upstream.ts'

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
  const upstream = await startFakeUpstream({ api: 'openai-chat' })
  // max_tokens 10 at $0.0013 an output token (input free) reserves $0.013; the upstream's 10 output
  // tokens settle exactly that, so spend never shrinks below a reservation and 76 fit under $1.
  const yaml = `providers:\n  - { slug: acme, api: openai-chat, base_url: "${upstream.url}" }
models:
  - slug: acme/metered
    endpoints:
      - { provider: acme, upstream_model_id: metered-1, pricing: { prompt: "0", completion: "0.0013" } }
`
  const first = await startTestGateway({ postgresUrl: postgres.url!, env, redisKeyPrefix, yaml })
  const second = await startTestGateway({ databaseUrl: first.database.url, env, redisKeyPrefix, yaml })
  try {
    const created = await first.inject({
      method: 'POST',
      url: '/api/v1/keys',
      headers: bearer(first.adminKey),
      payload: { name: 'shared', limit: 1, limit_reset: 'daily' },
    })
    assert.equal(created.statusCode, 201)
    const { data, key } = created.json() as { data: { hash: string }; key: string }
    const seen = await second.inject({ method: 'GET', url: '/api/v1/key', headers: bearer(key) })
    assert.equal(seen.statusCode, 200, 'the second instance sees the key the first created')

    const instances = [first, second]
    for (let index = 0; index < 200; index++)
      upstream.script({ type: 'completion', text: 'ok', usage: { input_tokens: 3, output_tokens: 10 } })
    const attempts = Array.from({ length: 200 }, async (_, index) => {
      const response = await instances[index % 2]!.inject({
        method: 'POST',
        url: '/api/v1/chat/completions',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: { model: 'acme/metered', max_tokens: 10, messages: [{ role: 'user', content: `n${index}` }] },
      })
      if (response.statusCode === 402) return null
      assert.equal(response.statusCode, 200, response.body)
      return index % 2
    })
    const admitted = (await Promise.all(attempts)).filter((entry) => entry !== null)
    assert.equal(admitted.length, 76)
    assert.equal(upstream.requests.length, 76, 'a refused reservation never reaches the upstream')
    assert.ok(admitted.includes(0) && admitted.includes(1), 'both instances admitted some')
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
    await upstream.close()
    await deleteKeys(redis.url!, redisKeyPrefix)
  }
})
