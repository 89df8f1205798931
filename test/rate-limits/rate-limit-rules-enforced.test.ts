// Rate-limit rules set through the API, enforced on inference calls (one instance, memory limiter,
// manual clock): a key's rule for every model, a key's rule for one model, a workspace's rule shared by
// its keys, tokens per minute, /embeddings, the 429's headers and message, and a deleted rule lifted.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { ManualClock } from '../support/manual-clock.ts'

const clock = new ManualClock('2026-11-27T12:00:00.000Z')
let upstream: FakeUpstream
let gateway: TestGateway

before(async () => {
  upstream = await startFakeUpstream({ api: 'openai-chat' })
  const endpoint = (id: string) =>
    `      - { provider: fake, upstream_model_id: ${id}, max_output_tokens: 100, pricing: { prompt: "0.000001", completion: "0.000001" } }`
  gateway = await startTestGateway({
    clock,
    yaml: [
      'providers:',
      `  - { slug: fake, api: openai-chat, base_url: "${upstream.url}", api_key: k }`,
      'models:',
      '  - slug: test/a',
      '    endpoints:',
      endpoint('a'),
      '  - slug: test/b',
      '    endpoints:',
      endpoint('b'),
      '  - slug: test/embed',
      '    kind: embedding',
      '    endpoints:',
      '      - { provider: fake, upstream_model_id: e, pricing: { prompt: "0.000001", completion: "0" } }',
      '',
    ].join('\n'),
  })
})
after(async () => {
  await gateway.close()
  await upstream.close()
})

async function manage(method: 'POST' | 'DELETE', url: string, payload?: object): Promise<{ data: { id: string } }> {
  const reply = await gateway.inject({
    method,
    url,
    headers: bearer(gateway.adminKey),
    ...(payload === undefined ? {} : { payload }),
  })
  assert.ok(reply.statusCode < 300, reply.body)
  return reply.json() as { data: { id: string } }
}

async function newKey(name: string, workspaceId?: string): Promise<{ key: string; hash: string }> {
  const created = await manage('POST', '/api/v1/keys', {
    name,
    ...(workspaceId === undefined ? {} : { workspace_id: workspaceId }),
  })
  const json = created as unknown as { key: string; data: { hash: string } }
  return { key: json.key, hash: json.data.hash }
}

const chat = (key: string, model: string, content = 'hi') =>
  gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: bearer(key),
    payload: { model, messages: [{ role: 'user', content }], max_tokens: 5 },
  })

const statuses = async (calls: (() => Promise<{ statusCode: number }>)[]): Promise<number[]> => {
  const result: number[] = []
  for (const call of calls) result.push((await call()).statusCode)
  return result
}

test("a key's rule for every model: the third call in a minute is a 429 naming the rule; time frees it", async () => {
  const { key, hash } = await newKey('two per minute')
  const other = await newKey('unlimited')
  const rule = await manage('POST', '/api/v1/rate-limits', { key_hash: hash, requests_per_minute: 2 })
  assert.deepEqual(await statuses([() => chat(key, 'test/a'), () => chat(key, 'test/b')]), [200, 200])
  const refused = await chat(key, 'test/a')
  assert.equal(refused.statusCode, 429, refused.body)
  assert.equal(refused.headers['retry-after'], '30')
  assert.equal(refused.headers['x-ratelimit-limit'], '2')
  const error = (refused.json() as { error: { message: string; metadata: Record<string, unknown> } }).error
  assert.match(
    error.message,
    new RegExp(`the key's limit \\(rate-limit rule ${rule.data.id}\\) allows 2 requests per minute`),
  )
  assert.equal(error.metadata.limit, 'key.requests_per_minute')
  assert.equal(error.metadata.rate_limit_rule_id, rule.data.id)
  assert.equal((await chat(other.key, 'test/a')).statusCode, 200, 'another key is not limited')
  clock.advance(30_000)
  assert.deepEqual(await statuses([() => chat(key, 'test/a'), () => chat(key, 'test/a')]), [200, 429])
})

test("a key's rule for one model limits that model only", async () => {
  const { key, hash } = await newKey('one of a per minute')
  await manage('POST', '/api/v1/rate-limits', { key_hash: hash, model: 'test/a', requests_per_minute: 1 })
  const results = await statuses([() => chat(key, 'test/a'), () => chat(key, 'test/a'), () => chat(key, 'test/b')])
  assert.deepEqual(results, [200, 429, 200])
  const refused = await chat(key, 'test/a')
  assert.match((refused.json() as { error: { message: string } }).error.message, /the key's limit for test\/a/)
})

test("a workspace's rule is shared by every key of the workspace, and a deleted rule is lifted", async () => {
  const workspace = (await manage('POST', '/api/v1/workspaces', { name: 'Shared', slug: 'shared' })).data
  const first = await newKey('first', workspace.id)
  const second = await newKey('second', workspace.id)
  const rule = await manage('POST', '/api/v1/rate-limits', { workspace_id: workspace.id, requests_per_minute: 3 })
  const results = await statuses([
    () => chat(first.key, 'test/a'),
    () => chat(second.key, 'test/b'),
    () => chat(first.key, 'test/b'),
    () => chat(second.key, 'test/a'),
  ])
  assert.deepEqual(results, [200, 200, 200, 429])
  const refused = await chat(first.key, 'test/a')
  assert.equal(
    (refused.json() as { error: { metadata: { limit: string } } }).error.metadata.limit,
    'workspace.requests_per_minute',
  )
  await manage('DELETE', `/api/v1/rate-limits/${rule.data.id}`)
  assert.equal((await chat(first.key, 'test/a')).statusCode, 200, 'the deleted rule no longer applies')
})

test('tokens per minute: the estimated input is charged up front, so the next call waits', async () => {
  const { key, hash } = await newKey('few tokens')
  await manage('POST', '/api/v1/rate-limits', { key_hash: hash, model: 'test/b', tokens_per_minute: 40 })
  const long = 'word '.repeat(60)
  assert.equal((await chat(key, 'test/b', long)).statusCode, 200, 'an empty bucket admits one call')
  const refused = await chat(key, 'test/b', long)
  assert.equal(refused.statusCode, 429, refused.body)
  assert.match((refused.json() as { error: { message: string } }).error.message, /allows 40 tokens per minute/)
  assert.equal((await chat(key, 'test/a', long)).statusCode, 200, 'another model is not limited')
})

test('/embeddings counts against the same rules', async () => {
  const { key, hash } = await newKey('embedder')
  await manage('POST', '/api/v1/rate-limits', { key_hash: hash, model: 'test/embed', requests_per_minute: 1 })
  const embed = () =>
    gateway.inject({
      method: 'POST',
      url: '/api/v1/embeddings',
      headers: bearer(key),
      payload: { model: 'test/embed', input: 'hello' },
    })
  assert.deepEqual(await statuses([embed, embed]), [200, 429])
})
