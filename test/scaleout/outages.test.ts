// Degradation: with Redis gone, money checks fail closed (503) while other routes keep serving; with
// PostgreSQL gone, /ready fails and requests that need the store answer 503 without writing anything;
// both come back without a restart. Redis is a redis-server this test launches on a spare port;
// PostgreSQL is reached through a TCP proxy the test cuts and restores.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { startTcpProxy } from '../support/tcp-proxy.ts'
import { hasRedisServer, sparePort, startRedisServer, stopRedisServer } from '../support/redis-server.ts'

const postgres = postgresTarget()

/** A served gateway's listening socket keeps the process alive while clients reconnect; inject() has none, so hold the loop open. */
function keepEventLoopAlive(): () => void {
  const timer = setInterval(() => undefined, 1_000)
  return () => clearInterval(timer)
}

async function waitFor(condition: () => Promise<boolean>, what: string, deadlineMs = 15_000): Promise<void> {
  const deadline = Date.now() + deadlineMs
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const models = (url: string) => `
providers:
  - { slug: fake, name: Fake, api: openai-chat, base_url: "${url}", api_key: k }
models:
  - slug: test/cheap
    endpoints:
      - { provider: fake, upstream_model_id: up, max_output_tokens: 10, pricing: { prompt: "0.0000001", completion: "0.0000001" } }
rate_limits:
  per_key: { requests_per_minute: 1000 }
  management: { requests_per_minute: 1000 }
`

const chat = (gateway: TestGateway, key: string) =>
  gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: bearer(key),
    payload: { model: 'test/cheap', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 },
  })

async function mintKey(gateway: TestGateway, name: string): Promise<string> {
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name },
  })
  assert.equal(created.statusCode, 201, created.body)
  return (created.json() as { key: string }).key
}

test(
  'Redis unreachable: inference fails closed with 503, other routes keep serving, and it recovers',
  { skip: hasRedisServer ? false : 'redis-server is not installed' },
  async () => {
    const release = keepEventLoopAlive()
    const port = await sparePort()
    let redis = await startRedisServer(port)
    const upstream = await startFakeUpstream({ api: 'openai-chat' })
    const gateway = await startTestGateway({
      yaml: models(upstream.url),
      env: { REDIS_URL: `redis://127.0.0.1:${port}` },
    })
    try {
      const key = await mintKey(gateway, 'redis-outage')
      assert.equal((await chat(gateway, key)).statusCode, 200)

      await stopRedisServer(redis)
      const refused = await chat(gateway, key)
      assert.equal(refused.statusCode, 503, refused.body)
      assert.match(
        (refused.json() as { error: { message: string } }).error.message,
        /Spend counters are unavailable; the request was not admitted/,
      )
      assert.equal(upstream.requests.length, 1, 'nothing reached the upstream without a money check')
      assert.equal(
        (await gateway.inject({ method: 'GET', url: '/api/v1/workspaces', headers: bearer(gateway.adminKey) }))
          .statusCode,
        200,
      )
      assert.equal(
        (await gateway.inject({ method: 'GET', url: '/api/v1/models', headers: bearer(key) })).statusCode,
        200,
        'rate limits fail open',
      )
      assert.equal((await gateway.inject({ method: 'GET', url: '/ready' })).statusCode, 200)

      redis = await startRedisServer(port)
      await waitFor(
        async () => (await chat(gateway, key)).statusCode === 200,
        'inference to recover after Redis came back',
      )
    } finally {
      await gateway.close()
      await upstream.close()
      await stopRedisServer(redis)
      release()
    }
  },
)

test(
  'PostgreSQL unreachable: /ready fails, store-backed requests answer 503 and write nothing, and it recovers',
  { skip: postgres.skip },
  async () => {
    const release = keepEventLoopAlive()
    const target = new URL(postgres.url!)
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432))
    const proxied = new URL(postgres.url!)
    proxied.host = `127.0.0.1:${proxy.port}`
    const upstream = await startFakeUpstream({ api: 'openai-chat' })
    const gateway = await startTestGateway({ postgresUrl: proxied.toString(), yaml: models(upstream.url) })
    try {
      assert.equal((await gateway.inject({ method: 'GET', url: '/ready' })).statusCode, 200)
      const key = await mintKey(gateway, 'before-outage')
      assert.equal((await chat(gateway, key)).statusCode, 200, 'the key is cached before the outage')
      await proxy.cut()
      const ready = await gateway.inject({ method: 'GET', url: '/ready' })
      assert.equal(ready.statusCode, 503)
      const create = await gateway.inject({
        method: 'POST',
        url: '/api/v1/keys',
        headers: bearer(gateway.adminKey),
        payload: { name: 'during-outage' },
      })
      assert.equal(create.statusCode, 503, create.body)
      assert.match((create.json() as { error: { message: string } }).error.message, /store is unreachable/)
      assert.equal((await gateway.inject({ method: 'GET', url: '/health' })).statusCode, 200)
      assert.equal((await chat(gateway, key)).statusCode, 200, 'inference with a cached key needs no store read')

      await proxy.restore()
      await waitFor(
        async () => (await gateway.inject({ method: 'GET', url: '/ready' })).statusCode === 200,
        '/ready to recover',
      )
      const list = await gateway.inject({ method: 'GET', url: '/api/v1/keys', headers: bearer(gateway.adminKey) })
      assert.equal(list.statusCode, 200)
      assert.ok(
        !(list.json() as { data: { name: string }[] }).data.some((key) => key.name === 'during-outage'),
        'the refused request wrote nothing',
      )
      assert.equal(
        (
          await gateway.inject({
            method: 'POST',
            url: '/api/v1/keys',
            headers: bearer(gateway.adminKey),
            payload: { name: 'after' },
          })
        ).statusCode,
        201,
      )
    } finally {
      await proxy.restore()
      await gateway.close()
      await upstream.close()
      await proxy.close()
      release()
    }
  },
)
