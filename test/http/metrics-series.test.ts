// /metrics counts every recorded call once, per model and provider: generations by status, tokens by
// type, the cost billed in USD and fallbacks by reason, over chat, responses, messages and embeddings.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { parseScrape, sampleValue, type Sample } from '../support/scrape.ts'

let primary: FakeUpstream
let backup: FakeUpstream
let gateway: TestGateway
let key: string

// Nano-dollars per token: prompt 1000, cached prompt 500, completion 2000, reasoning 3000 at chatco;
// prompt 2000 and completion 4000 at backup; 100 per embedded token.
const chatcoPricing = `{ prompt: "0.000001", completion: "0.000002", input_cache_read: "0.0000005", internal_reasoning: "0.000003" }`

before(async () => {
  primary = await startFakeUpstream({ api: 'openai-chat' })
  backup = await startFakeUpstream({ api: 'openai-chat' })
  gateway = await startTestGateway({
    yaml: `providers:
  - { slug: chatco, api: openai-chat, base_url: "${primary.url}" }
  - { slug: backup, api: openai-chat, base_url: "${backup.url}" }
  - { slug: gone, api: openai-chat, base_url: "http://127.0.0.1:1/v1" }
models:
  - slug: test/model
    endpoints:
      - { provider: chatco, upstream_model_id: m1, max_output_tokens: 100, pricing: ${chatcoPricing} }
      - { provider: backup, upstream_model_id: m2, max_output_tokens: 100, pricing: { prompt: "0.000002", completion: "0.000004" } }
  - slug: test/after-gone
    endpoints:
      - { provider: gone, upstream_model_id: g1, pricing: { prompt: "0.000001", completion: "0.000002" } }
      - { provider: backup, upstream_model_id: m2, pricing: { prompt: "0.000002", completion: "0.000004" } }
  - slug: test/embed
    kind: embedding
    endpoints:
      - { provider: chatco, upstream_model_id: e1, pricing: { prompt: "0.0000001", completion: "0" } }
`,
  })
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'metrics' },
  })
  key = (created.json() as { key: string }).key
})
after(async () => {
  await gateway.close()
  await Promise.all([primary.close(), backup.close()])
})

async function post(url: string, payload: Record<string, unknown>): Promise<void> {
  const response = await gateway.inject({ method: 'POST', url, headers: bearer(key), payload })
  assert.equal(response.statusCode, 200, response.body)
}

async function scrape(): Promise<Sample[]> {
  const response = await gateway.inject({ method: 'GET', url: '/metrics' })
  assert.equal(response.statusCode, 200)
  return parseScrape(response.body)
}

test('tokens, cost, generations and fallbacks per model and provider after chat, responses, messages and embeddings', async () => {
  const messages = [{ role: 'user', content: 'Hi' }]
  primary.script({
    type: 'completion',
    usage: { input_tokens: 10, cached_input_tokens: 4, output_tokens: 5, reasoning_tokens: 2 },
  })
  await post('/api/v1/chat/completions', { model: 'test/model', messages })
  primary.script({ type: 'completion', usage: { input_tokens: 10, output_tokens: 5 } })
  await post('/api/v1/responses', { model: 'test/model', input: 'Hi' })
  primary.script({ type: 'error', status: 503 })
  backup.script({ type: 'completion', usage: { input_tokens: 10, output_tokens: 5 } })
  await post('/api/v1/messages', { model: 'test/model', max_tokens: 50, messages })
  primary.script({ type: 'embeddings', promptTokens: 7 })
  await post('/api/v1/embeddings', { model: 'test/embed', input: 'some text' })
  const unknown = await gateway.inject({
    method: 'POST',
    url: '/api/v1/chat/completions',
    headers: bearer(key),
    payload: { model: 'nobody/knows-this', messages },
  })
  assert.equal(unknown.statusCode, 404, unknown.body)

  const samples = await scrape()
  const tokens = (model: string, provider: string, type: string) =>
    sampleValue(samples, 'switchyard_tokens_total', { model, provider, type })
  assert.deepEqual(
    ['prompt', 'completion', 'reasoning', 'cached'].map((type) => tokens('test/model', 'chatco', type)),
    [20, 10, 2, 4],
  )
  assert.deepEqual(
    ['prompt', 'completion', 'reasoning', 'cached'].map((type) => tokens('test/model', 'backup', type)),
    [10, 5, 0, 0],
  )
  assert.equal(tokens('test/embed', 'chatco', 'prompt'), 7)
  const cost = (model: string, provider: string) =>
    sampleValue(samples, 'switchyard_cost_usd_total', { model, provider })
  // chat: 6 x 1000 + 4 x 500 + 3 x 2000 + 2 x 3000 = 20000 nano; responses: 10 x 1000 + 5 x 2000 = 20000.
  assert.equal(cost('test/model', 'chatco'), 0.00004)
  // messages, after the fallback: 10 x 2000 + 5 x 4000 = 40000 nano.
  assert.equal(cost('test/model', 'backup'), 0.00004)
  assert.equal(cost('test/embed', 'chatco'), 0.0000007)
  const generations = (model: string, provider: string, status: string) =>
    sampleValue(samples, 'switchyard_generations_total', { model, provider, status })
  assert.equal(generations('test/model', 'chatco', 'completed'), 2)
  assert.equal(generations('test/model', 'backup', 'completed'), 1)
  assert.equal(generations('test/embed', 'chatco', 'completed'), 1)
  assert.equal(generations('none', 'none', 'failed'), 1)
  assert.equal(
    sampleValue(samples, 'switchyard_fallbacks_total', {
      model: 'test/model',
      provider: 'chatco',
      reason: 'unavailable',
    }),
    1,
  )
  assert.equal(
    samples.filter((sample) => sample.name === 'switchyard_fallbacks_total').length,
    1,
    'only the 503 moved a call on',
  )
  const labelValues = samples.flatMap((sample) => Object.values(sample.labels))
  assert.ok(!labelValues.includes('nobody/knows-this'), 'a model the client typed is never a label')
})

test('fallback reasons tell an unreachable upstream, a 5xx, a rate limit and an overload apart', async () => {
  const messages = [{ role: 'user', content: 'Hi' }]
  await post('/api/v1/chat/completions', { model: 'test/after-gone', messages })
  for (const status of [500, 502, 429, 529]) {
    primary.script({ type: 'error', status })
    await post('/api/v1/chat/completions', { model: 'test/model', messages })
  }
  const samples = await scrape()
  const fallbacks = (model: string, provider: string, reason: string) =>
    sampleValue(samples, 'switchyard_fallbacks_total', { model, provider, reason })
  assert.equal(fallbacks('test/after-gone', 'gone', 'unreachable'), 1)
  assert.equal(fallbacks('test/model', 'chatco', 'upstream_5xx'), 2)
  assert.equal(fallbacks('test/model', 'chatco', 'rate_limited'), 1)
  assert.equal(fallbacks('test/model', 'chatco', 'overloaded'), 1)
  assert.equal(fallbacks('test/model', 'chatco', 'unavailable'), 1, 'the 503 of the test before')
  const reasons = samples.filter((sample) => sample.name === 'switchyard_fallbacks_total').map((s) => s.labels.reason)
  assert.ok(!reasons.includes('upstream_error'), `no catch-all reason: ${reasons.join(', ')}`)
})
