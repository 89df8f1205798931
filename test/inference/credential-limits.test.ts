// A pool credential's own rate limits (requests_per_minute, tokens_per_minute in the YAML), end to end
// over real sockets (client -> gateway -> fake upstream) with a manual clock: a credential at its limit
// is skipped without calling the provider, the others serve; a pool with every credential at its limits
// falls back to the next endpoint, or answers 429 with a retry-after naming the limit; the limit frees
// up as the minute passes; and two instances sharing PostgreSQL and Redis enforce one limit.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway, type TestGatewayOptions } from '../support/test-gateway.ts'
import { ManualClock } from '../support/manual-clock.ts'
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { parseScrape, sampleValue } from '../support/scrape.ts'

const closers: (() => Promise<void>)[] = []
after(async () => {
  for (const close of closers.reverse()) await close()
})

const endpoint = (provider: string) =>
  `      - { provider: ${provider}, upstream_model_id: up, max_output_tokens: 50, pricing: { prompt: "0.000001", completion: "0.000001" } }`

function yamlFor(upstream: FakeUpstream, credentials: string, backup: FakeUpstream | null): string {
  return [
    'providers:',
    `  - { slug: pooled, api: openai-chat, base_url: "${upstream.url}", credentials: ${credentials} }`,
    ...(backup === null ? [] : [`  - { slug: backup, api: openai-chat, base_url: "${backup.url}", api_key: z }`]),
    'models:',
    '  - slug: test/model',
    '    endpoints:',
    endpoint('pooled'),
    ...(backup === null ? [] : [endpoint('backup')]),
    '',
  ].join('\n')
}

interface Running {
  readonly gateway: TestGateway
  readonly url: string
  readonly key: string
}

async function running(yaml: string, options: Omit<TestGatewayOptions, 'yaml'>, key?: string): Promise<Running> {
  const gateway = await startTestGateway({ ...options, yaml })
  closers.push(() => gateway.close())
  const url = await gateway.listen()
  if (key !== undefined) return { gateway, url, key }
  const created = await fetch(`${url}/api/v1/keys`, {
    method: 'POST',
    headers: { ...bearer(gateway.adminKey), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'pool user' }),
  })
  assert.equal(created.status, 201)
  return { gateway, url, key: ((await created.json()) as { key: string }).key }
}

async function pooled(credentials: string, options: { backup?: boolean } = {}) {
  const clock = new ManualClock('2026-11-27T12:00:00.000Z')
  const upstream = await startFakeUpstream({ api: 'openai-chat' })
  const backup = options.backup === true ? await startFakeUpstream({ api: 'openai-chat' }) : null
  closers.push(async () => {
    await upstream.close()
    await backup?.close()
  })
  const instance = await running(yamlFor(upstream, credentials, backup), { clock })
  return { clock, upstream, backup, ...instance }
}

async function chat(
  { url, key }: Running,
  stream = false,
): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const response = await fetch(`${url}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'test/model',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 5,
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    }),
  })
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() }
}

/** How many requests the upstream received with each key. */
function perKey(upstream: FakeUpstream): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const request of upstream.requests) {
    const key = request.headers.authorization?.replace(/^Bearer /, '') ?? '(none)'
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

test('each credential serves up to its own requests per minute; then 429 naming the limit, nothing sent upstream', async () => {
  const instance = await pooled(
    '[{ api_key: a, name: small, requests_per_minute: 2 }, { api_key: b, name: large, weight: 2, requests_per_minute: 4 }]',
  )
  for (let index = 0; index < 6; index++) assert.equal((await chat(instance)).status, 200)
  assert.deepEqual(perKey(instance.upstream), { a: 2, b: 4 })
  const refused = await chat(instance)
  assert.equal(refused.status, 429, refused.body)
  assert.equal(instance.upstream.requests.length, 6, 'a refused request never reaches the provider')
  // large (4 per minute) frees one request 15 s after the burst, small (2 per minute) after 30 s.
  assert.equal(refused.retryAfter, '15')
  const message = (JSON.parse(refused.body) as { error: { message: string } }).error.message
  assert.match(message, /provider pooled/)
  assert.match(message, /credential small allows 2 requests per minute \(requests_per_minute\)/)
  assert.match(message, /credential large allows 4 requests per minute/)
  instance.clock.advance(15_000)
  assert.equal((await chat(instance)).status, 200, 'served again once the retry-after has passed')
  assert.deepEqual(perKey(instance.upstream), { a: 2, b: 5 })
  assert.equal((await chat(instance)).status, 429)
  instance.clock.advance(60_000)
  for (let index = 0; index < 6; index++) assert.equal((await chat(instance)).status, 200)
  assert.deepEqual(perKey(instance.upstream), { a: 4, b: 9 }, 'a whole minute later both are full again')
})

test('a pool with every credential at its limits is skipped for the next endpoint, and is not marked unhealthy', async () => {
  const instance = await pooled('[{ api_key: a, requests_per_minute: 1 }, { api_key: b, requests_per_minute: 1 }]', {
    backup: true,
  })
  // More skips than the breaker's failure threshold (5): they must not open the pooled endpoint's circuit.
  for (let index = 0; index < 12; index++) assert.equal((await chat(instance)).status, 200)
  assert.deepEqual(perKey(instance.upstream), { a: 1, b: 1 })
  assert.equal(instance.backup!.requests.length, 10)
  instance.clock.advance(60_000)
  for (let index = 0; index < 2; index++) assert.equal((await chat(instance)).status, 200)
  assert.deepEqual(perKey(instance.upstream), { a: 2, b: 2 }, 'the pool serves again as soon as its limits allow')
  assert.equal(instance.backup!.requests.length, 10)
})

test('a credential at its tokens per minute is skipped; the other credential serves', async () => {
  // A chat request estimates at well over 1 token: the first request with `a` takes its whole minute.
  const instance = await pooled('[{ api_key: a, tokens_per_minute: 1 }, { api_key: b }]')
  for (let index = 0; index < 6; index++) assert.equal((await chat(instance)).status, 200)
  assert.deepEqual(perKey(instance.upstream), { a: 1, b: 5 })
  instance.clock.advance(60_000)
  for (let index = 0; index < 2; index++) assert.equal((await chat(instance)).status, 200)
  assert.deepEqual(perKey(instance.upstream), { a: 2, b: 6 })
})

for (const stream of [false, true]) {
  test(`a credential's token limit is charged the usage the answer reports, not only the estimate (stream: ${stream})`, async () => {
    // The request estimates at a few dozen tokens: without the reported usage, \`a\` would serve every
    // other request of the minute. The first answer reports 1,000 tokens: \`a\` is then full for the minute.
    const instance = await pooled('[{ api_key: a, tokens_per_minute: 600 }, { api_key: b }]')
    instance.upstream.script({ type: 'completion', text: 'long', usage: { input_tokens: 10, output_tokens: 990 } })
    for (let index = 0; index < 6; index++) assert.equal((await chat(instance, stream)).status, 200)
    assert.deepEqual(perKey(instance.upstream), { a: 1, b: 5 })
    instance.clock.advance(60_000)
    for (let index = 0; index < 4; index++) assert.equal((await chat(instance, stream)).status, 200)
    assert.deepEqual(perKey(instance.upstream), { a: 3, b: 7 }, 'a minute later, small answers alternate again')
  })
}

/** Limiter failures (a Redis command over its 1 s timeout on a loaded machine) admit: this counts them. */
async function limiterErrors({ url }: Running): Promise<number> {
  const samples = parseScrape(await (await fetch(`${url}/metrics`)).text())
  const labels = { limit: 'credential.requests_per_minute', decision: 'error' }
  return sampleValue(samples, 'switchyard_rate_limit_decisions_total', labels) ?? 0
}

const postgres = postgresTarget()
const redis = redisTarget()

test(
  'two instances sharing PostgreSQL and Redis enforce one credential limit: 40 concurrent requests, exactly the limit sent',
  { skip: postgres.skip || redis.skip },
  async () => {
    const clock = new ManualClock('2026-11-27T12:00:00.000Z')
    const upstream = await startFakeUpstream({ api: 'openai-chat' })
    const redisKeyPrefix = `{switchyard-test:${randomUUID()}}:`
    closers.push(async () => {
      await upstream.close()
      await deleteRedisKeys(redis.url!, redisKeyPrefix)
    })
    // One store (and so one key) and one Redis: the second instance serves the key the first one made.
    const yaml = yamlFor(upstream, '[{ api_key: a, requests_per_minute: 12 }]', null)
    const options = { clock, env: { REDIS_URL: redis.url! }, redisKeyPrefix }
    const first = await running(yaml, { ...options, postgresUrl: postgres.url! })
    const second = await running(yaml, { ...options, databaseUrl: first.gateway.database.url }, first.key)
    const replies = await Promise.all(Array.from({ length: 40 }, (_, index) => chat(index % 2 === 0 ? first : second)))
    // A limiter failure lets its request through (these limits fail open); each one is counted.
    const failedOpen = (await limiterErrors(first)) + (await limiterErrors(second))
    assert.equal(replies.filter((reply) => reply.status === 200).length, 12 + failedOpen)
    const refused = replies.filter((reply) => reply.status === 429)
    assert.equal(refused.length, 28 - failedOpen)
    assert.ok(refused.every((reply) => /credential key-1 allows 12 requests per minute/.test(reply.body)))
    assert.equal(upstream.requests.length, 12 + failedOpen)
    assert.ok(
      replies.slice(0, 2).every((reply) => reply.status === 200),
      'both instances served',
    )
  },
)

async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 })
  try {
    const keys = await client.keys(`${prefix}*`)
    if (keys.length > 0) await client.del(...keys)
  } finally {
    await client.quit()
  }
}
