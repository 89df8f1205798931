// Rate limits through HTTP on one instance (memory limiter, manual clock): request budgets per key,
// per organization and for management routes, tokens per minute, the 429's headers and message, and
// upstream 429s that fall back instead of surfacing.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { ManualClock } from '../support/manual-clock.ts'

const clock = new ManualClock('2026-11-22T12:00:00.000Z')
let first: FakeUpstream
let second: FakeUpstream
let gateway: TestGateway

const yaml = (a: FakeUpstream, b: FakeUpstream) => `
providers:
  - { slug: first, name: First, api: openai-chat, base_url: "${a.url}", api_key: k }
  - { slug: second, name: Second, api: openai-chat, base_url: "${b.url}", api_key: k }
models:
  - slug: test/fast
    endpoints:
      - { provider: first, upstream_model_id: up, max_output_tokens: 100, pricing: { prompt: "0.000001", completion: "0.000001" } }
      - { provider: second, upstream_model_id: up, max_output_tokens: 100, pricing: { prompt: "0.000001", completion: "0.000001" } }
rate_limits:
  per_key: { requests_per_minute: 3, tokens_per_minute: 500 }
  per_organization: { requests_per_minute: 5 }
  management: { requests_per_minute: 4 }
`

before(async () => {
  first = await startFakeUpstream({ api: 'openai-chat' })
  second = await startFakeUpstream({ api: 'openai-chat' })
  gateway = await startTestGateway({ yaml: yaml(first, second), clock })
})
after(async () => {
  await gateway.close()
  await first.close()
  await second.close()
})

async function mintKey(name: string): Promise<string> {
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name },
  })
  assert.equal(created.statusCode, 201, created.body)
  return (created.json() as { key: string }).key
}

const chat = (key: string, content = 'hi') =>
  gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: bearer(key),
    payload: { model: 'test/fast', messages: [{ role: 'user', content }], max_tokens: 10 },
  })

test('per key and per organization request budgets: 429 with Retry-After, X-RateLimit-* and the limit named', async () => {
  clock.advance(120_000)
  const a = await mintKey('a')
  const b = await mintKey('b')
  const answered = []
  for (let i = 0; i < 3; i++) answered.push(await chat(a))
  assert.deepEqual(
    answered.map((reply) => reply.statusCode),
    [200, 200, 200],
  )
  assert.equal(answered[0]!.headers['x-ratelimit-limit'], '3')
  assert.equal(answered[0]!.headers['x-ratelimit-remaining'], '2')
  const refused = await chat(a)
  assert.equal(refused.statusCode, 429)
  assert.equal(refused.headers['retry-after'], '20')
  assert.equal(refused.headers['x-ratelimit-limit'], '3')
  assert.equal(refused.headers['x-ratelimit-remaining'], '0')
  assert.equal(refused.headers['x-ratelimit-reset'], String(clock.now().getTime() + 60_000))
  const body = refused.json() as { error: { code: number; message: string } }
  assert.equal(body.error.code, 429)
  assert.match(body.error.message, /per_key\.requests_per_minute allows 3 requests per minute/)

  assert.equal((await chat(b)).statusCode, 200)
  assert.equal((await chat(b)).statusCode, 200)
  const organization = await chat(b)
  assert.equal(organization.statusCode, 429, 'the organization budget of 5 is spent by a and b together')
  assert.match(
    (organization.json() as { error: { message: string } }).error.message,
    /per_organization\.requests_per_minute allows 5/,
  )

  clock.advance(20_000)
  assert.equal((await chat(a)).statusCode, 200, 'after Retry-After the key is admitted again')
})

test('tokens per minute: the estimated input is charged up front, the actual usage after', async () => {
  clock.advance(120_000)
  const key = await mintKey('tokens')
  first.script({ type: 'completion', text: 'ok', usage: { input_tokens: 10, output_tokens: 480 } })
  const before = await tokenCharges()
  assert.equal((await chat(key)).statusCode, 200)
  await waitForTokenCharges(before + 2)
  const refused = await chat(key)
  assert.equal(refused.statusCode, 429)
  assert.match(
    (refused.json() as { error: { message: string } }).error.message,
    /per_key\.tokens_per_minute allows 500 tokens per minute/,
  )
  assert.ok(Number(refused.headers['retry-after']) > 0)
  clock.advance(60_000)
  const upstreamCalls = first.requests.length
  first.script({ type: 'completion', text: 'ok', usage: { input_tokens: 1, output_tokens: 1 } })
  assert.equal((await chat(key)).statusCode, 200)
  const big = await chat(key, 'x'.repeat(3_000))
  assert.equal(big.statusCode, 429, 'an input estimated over the remaining budget is refused before any upstream call')
  assert.equal(first.requests.length, upstreamCalls + 1)
})

/** Token charges the limiter has admitted so far, read from /metrics (which spends no budget). */
async function tokenCharges(): Promise<number> {
  const body = (await gateway.inject({ method: 'GET', url: '/metrics' })).body
  const match =
    /switchyard_rate_limit_decisions_total\{limit="per_key.tokens_per_minute",decision="allowed"\} (\d+)/.exec(body)
  return Number(match?.[1] ?? 0)
}

/** The usage charge lands just after the response; wait until the limiter has seen it. */
async function waitForTokenCharges(count: number): Promise<void> {
  const deadline = Date.now() + 10_000
  while ((await tokenCharges()) < count) {
    if (Date.now() > deadline) assert.fail(`the limiter never saw ${count} token charges`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

test('management routes have their own budget', async () => {
  clock.advance(120_000)
  const codes = []
  for (let i = 0; i < 5; i++)
    codes.push(
      (await gateway.inject({ method: 'GET', url: '/api/v1/keys', headers: bearer(gateway.adminKey) })).statusCode,
    )
  assert.deepEqual(codes, [200, 200, 200, 200, 429])
  const key = await (async () => {
    clock.advance(120_000)
    return mintKey('after-management')
  })()
  assert.equal((await chat(key)).statusCode, 200, 'inference keys do not spend the management budget')
})

test('an upstream 429 with a second endpoint available falls back and answers 200', async () => {
  clock.advance(120_000)
  const key = await mintKey('fallback')
  first.script({ type: 'error', status: 429, retryAfterSeconds: 7 })
  second.script({ type: 'completion', text: 'from second' })
  const reply = await chat(key)
  assert.equal(reply.statusCode, 200, reply.body)
  assert.equal(
    (reply.json() as { choices: { message: { content: string } }[] }).choices[0]?.message.content,
    'from second',
  )
})

test('the limiter decisions are exported as Prometheus metrics', async () => {
  const metrics = await gateway.inject({ method: 'GET', url: '/metrics' })
  assert.match(
    metrics.body,
    /switchyard_rate_limit_decisions_total\{limit="per_key.requests_per_minute",decision="refused"\} [1-9]/,
  )
  assert.match(metrics.body, /switchyard_upstream_attempts_total\{provider="first",status="429"\} 1/)
  assert.match(metrics.body, /switchyard_cache_entries\{cache="api_keys"\} \d+/)
  assert.match(metrics.body, /switchyard_observability_outbox_rows\{status="pending"\} \d+/)
  assert.match(metrics.body, /switchyard_observability_outbox_rows\{status="dead"\} \d+/)
  assert.match(metrics.body, /switchyard_observability_records_in_memory \d+/)
})
