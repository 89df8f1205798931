// A provider with a weighted credential pool, over real sockets (client -> gateway -> fake upstream,
// manual clock): requests spread across
// the keys exactly by weight, a key the provider refuses (401, 429) is cooled down on its own while the
// same request is served by another key, a cooled key comes back when its time is up, and a pool with
// every key refused fails over to the next endpoint.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { ManualClock } from '../support/manual-clock.ts'

const closers: (() => Promise<void>)[] = []
after(async () => {
  for (const close of closers.reverse()) await close()
})

const endpoint = (provider: string) =>
  `      - { provider: ${provider}, upstream_model_id: up, max_output_tokens: 50, pricing: { prompt: "0.000001", completion: "0.000001" } }`

async function pooled(credentials: string, options: { apiKey?: string; backup?: boolean } = {}) {
  const clock = new ManualClock('2026-11-27T12:00:00.000Z')
  const upstream = await startFakeUpstream({
    api: 'openai-chat',
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
  })
  const backup = options.backup === true ? await startFakeUpstream({ api: 'openai-chat' }) : null
  const yaml = [
    'providers:',
    `  - { slug: pooled, api: openai-chat, base_url: "${upstream.url}", credentials: ${credentials} }`,
    ...(backup === null ? [] : [`  - { slug: backup, api: openai-chat, base_url: "${backup.url}", api_key: b }`]),
    'models:',
    '  - slug: test/model',
    '    endpoints:',
    endpoint('pooled'),
    ...(backup === null ? [] : [endpoint('backup')]),
    '',
  ].join('\n')
  const gateway = await listening(await startTestGateway({ yaml, clock }))
  closers.push(async () => {
    await gateway.close()
    await upstream.close()
    await backup?.close()
  })
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'pool user' },
  })
  const key = (created.json() as { key: string }).key
  return { clock, upstream, backup, gateway, key }
}

const bases = new WeakMap<TestGateway, string>()

async function listening(gateway: TestGateway): Promise<TestGateway> {
  bases.set(gateway, await gateway.listen())
  return gateway
}

/** POST /chat/completions over a socket to the listening gateway. */
async function chat(gateway: TestGateway, key: string): Promise<{ statusCode: number; body: string }> {
  const response = await fetch(`${bases.get(gateway)!}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/model', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 }),
  })
  return { statusCode: response.status, body: await response.text() }
}

/** The keys the upstream received, in order, from request `from` on. */
const keysSeen = (upstream: FakeUpstream, from = 0) =>
  upstream.requests.slice(from).map((request) => request.headers.authorization?.replace(/^Bearer /, ''))

test('requests spread across the keys exactly by weight (3:1 over 40 requests)', async () => {
  const { upstream, gateway, key } = await pooled('[{ api_key: a, weight: 3 }, { api_key: b }]')
  for (let index = 0; index < 40; index++) assert.equal((await chat(gateway, key)).statusCode, 200)
  const seen = keysSeen(upstream)
  assert.equal(seen.filter((name) => name === 'a').length, 30)
  assert.equal(seen.filter((name) => name === 'b').length, 10)
  // Smooth: never more than three of a in a row.
  assert.doesNotMatch(seen.join(''), /aaaa/)
})

test('a key answered 401 is cooled down on its own; the same request is served by the next key', async () => {
  const { clock, upstream, gateway, key } = await pooled(
    '[{ api_key: revoked, name: old }, { api_key: good, name: new }]',
    {
      apiKey: 'good',
    },
  )
  for (let index = 0; index < 5; index++) assert.equal((await chat(gateway, key)).statusCode, 200)
  assert.deepEqual(keysSeen(upstream), ['revoked', 'good', 'good', 'good', 'good', 'good'])
  clock.advance(5 * 60_000 + 1)
  for (let index = 0; index < 2; index++) assert.equal((await chat(gateway, key)).statusCode, 200)
  assert.ok(keysSeen(upstream, 6).includes('revoked'), 'after five minutes the key is tried again')
})

test("a key answered 429 cools down for the provider's Retry-After, then serves again", async () => {
  const { clock, upstream, gateway, key } = await pooled('[{ api_key: a }, { api_key: b }]')
  upstream.script({ type: 'error', status: 429, retryAfterSeconds: 20 })
  for (let index = 0; index < 4; index++) assert.equal((await chat(gateway, key)).statusCode, 200)
  assert.deepEqual(keysSeen(upstream), ['a', 'b', 'b', 'b', 'b'])
  clock.advance(20_001)
  for (let index = 0; index < 2; index++) assert.equal((await chat(gateway, key)).statusCode, 200)
  assert.deepEqual(keysSeen(upstream, 5).sort(), ['a', 'b'])
})

test('every key of the pool refused: the request falls back to the next endpoint', async () => {
  const { upstream, backup, gateway, key } = await pooled('[{ api_key: a }, { api_key: b }]', { backup: true })
  upstream.script({ type: 'error', status: 429 }, { type: 'error', status: 429 })
  const answer = await chat(gateway, key)
  assert.equal(answer.statusCode, 200, answer.body)
  assert.deepEqual(keysSeen(upstream), ['a', 'b'])
  assert.equal(backup!.requests.length, 1)
  // Both keys are cooling down: the next request goes straight to the backup endpoint.
  assert.equal((await chat(gateway, key)).statusCode, 200)
  assert.equal(upstream.requests.length, 2)
  assert.equal(backup!.requests.length, 2)
})

test('same-endpoint retries (retry in the provider config): 5xx answers are retried at the same endpoint', async () => {
  const clock = new ManualClock('2026-11-27T12:00:00.000Z')
  const upstream = await startFakeUpstream({ api: 'openai-chat' })
  const yaml = [
    'providers:',
    `  - { slug: retried, api: openai-chat, base_url: "${upstream.url}", api_key: k, retry: { max_attempts: 3, base_ms: 1, max_ms: 5 } }`,
    'models:',
    '  - slug: test/model',
    '    endpoints:',
    endpoint('retried'),
    '',
  ].join('\n')
  const gateway = await listening(await startTestGateway({ yaml, clock }))
  closers.push(async () => {
    await gateway.close()
    await upstream.close()
  })
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'retry user' },
  })
  const key = (created.json() as { key: string }).key
  upstream.script({ type: 'error', status: 500 }, { type: 'error', status: 503 })
  const answer = await chat(gateway, key)
  assert.equal(answer.statusCode, 200, answer.body)
  assert.equal(upstream.requests.length, 3)
  upstream.script({ type: 'error', status: 500 }, { type: 'error', status: 500 }, { type: 'error', status: 500 })
  assert.equal((await chat(gateway, key)).statusCode, 502, 'three failures in all, then the request fails')
  assert.equal(upstream.requests.length, 6)
  upstream.script({ type: 'error', status: 429, retryAfterSeconds: 30 })
  assert.equal((await chat(gateway, key)).statusCode, 429, 'a Retry-After beyond max_ms is not waited for')
  assert.equal(upstream.requests.length, 7)
})
