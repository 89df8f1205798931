// Two gateway instances on one PostgreSQL (and one Redis), driven at once: one key's rate limit holds
// across both, a key revoked or disabled on one is refused by the other within a second (over Redis
// pub/sub, and over PostgreSQL LISTEN/NOTIFY without Redis), and a change whose message was never sent
// heals through the periodic refresh. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set (CI).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { ManualClock } from '../support/manual-clock.ts'

const postgres = postgresTarget()
const redis = redisTarget()

const yaml = (upstream: FakeUpstream, extra = '') => `
providers:
  - { slug: fake, name: Fake, api: openai-chat, base_url: "${upstream.url}", api_key: k }
models:
  - slug: test/cheap
    endpoints:
      - { provider: fake, upstream_model_id: up, max_output_tokens: 10, pricing: { prompt: "0.0000001", completion: "0.0000001" } }
${extra}`

async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 })
  try {
    const keys = await client.keys(`${prefix}*`)
    if (keys.length > 0) await client.del(...keys)
  } finally {
    await client.quit()
  }
}

async function pair(
  options: { withRedis: boolean; extraYaml?: string; clock?: ManualClock; cacheRefreshMs?: number },
  body: (a: TestGateway, b: TestGateway) => Promise<void>,
): Promise<void> {
  const upstream = await startFakeUpstream({ api: 'openai-chat' })
  const redisKeyPrefix = `{switchyard-test:${randomUUID()}}:`
  const env: Record<string, string> = options.withRedis ? { REDIS_URL: redis.url! } : {}
  const common = {
    yaml: yaml(upstream, options.extraYaml),
    env,
    redisKeyPrefix,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.cacheRefreshMs === undefined ? {} : { cacheRefreshMs: options.cacheRefreshMs }),
  }
  const a = await startTestGateway({ ...common, postgresUrl: postgres.url! })
  const b = await startTestGateway({ ...common, databaseUrl: a.database.url })
  try {
    await body(a, b)
  } finally {
    await b.close()
    await a.close()
    await upstream.close()
    if (options.withRedis) await deleteRedisKeys(redis.url!, redisKeyPrefix)
  }
}

async function mintKey(gateway: TestGateway, name: string): Promise<{ key: string; hash: string }> {
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name },
  })
  assert.equal(created.statusCode, 201, created.body)
  const json = created.json() as { key: string; data: { hash: string } }
  return { key: json.key, hash: json.data.hash }
}

const chat = (gateway: TestGateway, key: string) =>
  gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: bearer(key),
    payload: { model: 'test/cheap', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 },
  })

/** Polls until `gateway` refuses `key` with 401; returns how long that took. */
async function msUntilRefused(gateway: TestGateway, key: string, deadlineMs: number): Promise<number> {
  const started = Date.now()
  for (;;) {
    const reply = await gateway.inject({ method: 'GET', url: '/api/v1/key', headers: bearer(key) })
    if (reply.statusCode === 401) return Date.now() - started
    assert.equal(reply.statusCode, 200, reply.body)
    if (Date.now() - started > deadlineMs) assert.fail(`the key was still accepted after ${deadlineMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const skip = postgres.skip || redis.skip

test(
  'one key rate limit holds across two instances: 200 concurrent requests, exactly the limit admitted',
  { skip },
  async () => {
    const clock = new ManualClock('2026-11-22T12:00:00.000Z')
    await pair(
      { withRedis: true, clock, extraYaml: 'rate_limits:\n  per_key: { requests_per_minute: 52 }\n' },
      async (a, b) => {
        const { key } = await mintKey(a, 'limited')
        for (const instance of [a, b])
          assert.equal(
            (await instance.inject({ method: 'GET', url: '/api/v1/key', headers: bearer(key) })).statusCode,
            200,
            'both instances know the key (this spends 2 of 52)',
          )
        const replies = await Promise.all(
          Array.from({ length: 200 }, (_, index) =>
            chat(index % 2 === 0 ? a : b, key).then((reply) => [index % 2, reply] as const),
          ),
        )
        const admitted = replies.filter(([, reply]) => reply.statusCode === 200)
        const refused = replies.filter(([, reply]) => reply.statusCode === 429)
        assert.equal(admitted.length, 50)
        assert.equal(refused.length, 150)
        assert.ok(
          admitted.some(([instance]) => instance === 0) && admitted.some(([instance]) => instance === 1),
          'both instances admitted some',
        )
        assert.ok(
          refused.every(
            ([, reply]) => reply.headers['retry-after'] !== undefined && reply.headers['x-ratelimit-limit'] === '52',
          ),
        )
      },
    )
  },
)

test(
  'a rate-limit rule for one model, created on one instance, holds across both: exactly its limit admitted',
  { skip },
  async () => {
    const clock = new ManualClock('2026-11-27T12:00:00.000Z')
    await pair({ withRedis: true, clock }, async (a, b) => {
      const { key, hash } = await mintKey(a, 'rule-limited')
      const created = await a.inject({
        method: 'POST',
        url: '/api/v1/rate-limits',
        headers: bearer(a.adminKey),
        payload: { key_hash: hash, model: 'test/cheap', requests_per_minute: 30 },
      })
      assert.equal(created.statusCode, 201, created.body)
      const ruleId = (created.json() as { data: { id: string } }).data.id
      // The other instance learns the rule through the change transport: wait until its key object shows it.
      const deadline = Date.now() + 10_000
      for (;;) {
        const shown = await b.inject({ method: 'GET', url: `/api/v1/keys/${hash}`, headers: bearer(b.adminKey) })
        const rules = (shown.json() as { data: { rate_limits: { id: string }[] } }).data.rate_limits
        if (rules.some((rule) => rule.id === ruleId)) break
        assert.ok(Date.now() < deadline, 'the second instance never heard of the rule')
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      const replies = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          chat(index % 2 === 0 ? a : b, key).then((reply) => [index % 2, reply] as const),
        ),
      )
      const admitted = replies.filter(([, reply]) => reply.statusCode === 200)
      assert.equal(admitted.length, 30)
      assert.ok(admitted.some(([instance]) => instance === 0) && admitted.some(([instance]) => instance === 1))
      const refused = replies.filter(([, reply]) => reply.statusCode === 429)
      assert.equal(refused.length, 70)
      assert.ok(refused.every(([, reply]) => /rate-limit rule/.test(reply.body)))
    })
  },
)

test('a key revoked on one instance is refused by the other within a second (Redis pub/sub)', { skip }, async () => {
  await pair({ withRedis: true }, async (a, b) => {
    const revoked = await mintKey(a, 'to-revoke')
    const disabled = await mintKey(a, 'to-disable')
    assert.equal((await chat(b, revoked.key)).statusCode, 200, 'the other instance accepts the new key')
    assert.equal((await chat(b, disabled.key)).statusCode, 200)
    assert.equal(
      (await a.inject({ method: 'DELETE', url: `/api/v1/keys/${revoked.hash}`, headers: bearer(a.adminKey) }))
        .statusCode,
      200,
    )
    assert.ok((await msUntilRefused(b, revoked.key, 5_000)) < 1_000)
    assert.equal(
      (
        await b.inject({
          method: 'PATCH',
          url: `/api/v1/keys/${disabled.hash}`,
          headers: bearer(b.adminKey),
          payload: { disabled: true },
        })
      ).statusCode,
      200,
    )
    assert.ok((await msUntilRefused(a, disabled.key, 5_000)) < 1_000)
  })
})

test('without Redis, PostgreSQL LISTEN/NOTIFY carries the revocation', { skip: postgres.skip }, async () => {
  await pair({ withRedis: false }, async (a, b) => {
    const revoked = await mintKey(a, 'to-revoke')
    assert.equal((await chat(b, revoked.key)).statusCode, 200)
    assert.equal(
      (await a.inject({ method: 'DELETE', url: `/api/v1/keys/${revoked.hash}`, headers: bearer(a.adminKey) }))
        .statusCode,
      200,
    )
    assert.ok((await msUntilRefused(b, revoked.key, 5_000)) < 1_000)
  })
})

test('a change whose message was lost heals through the periodic refresh', { skip: postgres.skip }, async () => {
  await pair({ withRedis: false, cacheRefreshMs: 200 }, async (a, b) => {
    const { key, hash } = await mintKey(a, 'silently-disabled')
    assert.equal((await chat(b, key)).statusCode, 200)
    await a.store.db.updateTable('api_keys').set({ disabled: 1 }).where('hash', '=', hash).execute()
    await msUntilRefused(b, key, 10_000)
  })
})
