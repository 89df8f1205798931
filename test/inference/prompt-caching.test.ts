// Anthropic prompt caching through the gateway: `cache_control` breakpoints sent on /messages (system,
// message, tool_result and tool blocks) and on /chat/completions content parts reach an Anthropic
// upstream where they were given, and cache reads and writes are billed at the catalog's cache prices.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

let upstream: FakeUpstream
let gateway: TestGateway
let base: string
let key: string

before(async () => {
  upstream = await startFakeUpstream({ api: 'anthropic', apiKey: 'upstream-secret' })
  gateway = await startTestGateway({
    yaml: [
      'providers:',
      `  - { slug: claude, api: anthropic, base_url: "${upstream.url}", api_key: upstream-secret }`,
      'models:',
      '  - slug: test/claude',
      '    endpoints:',
      '      - provider: claude',
      '        upstream_model_id: up-claude',
      '        max_output_tokens: 1000',
      '        pricing: { prompt: "0.000003", completion: "0.000015", input_cache_read: "0.0000003", input_cache_write: "0.00000375" }',
      '',
    ].join('\n'),
  })
  base = await gateway.listen()
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'caching' },
  })
  key = (created.json() as { key: string }).key
})
after(async () => {
  await gateway.close()
  await upstream.close()
})

const ephemeral = { type: 'ephemeral' } as const
const lastBody = () => upstream.requests.at(-1)?.body as Record<string, unknown>

test('/messages forwards cache_control on system, text, tool_result and tool blocks to Anthropic', async () => {
  // 1000 input tokens: 800 read from the cache, 100 written to it, 100 plain; 10 output tokens.
  upstream.script({
    type: 'completion',
    text: 'cached answer',
    usage: { input_tokens: 1000, cached_input_tokens: 800, cache_write_tokens: 100, output_tokens: 10 },
  })
  const client = new Anthropic({ apiKey: key, baseURL: `${base}/api`, maxRetries: 0 })
  const message = await client.messages.create({
    model: 'test/claude',
    max_tokens: 100,
    system: [
      { type: 'text', text: 'You are terse.' },
      { type: 'text', text: 'A long policy document.', cache_control: { type: 'ephemeral', ttl: '1h' } },
    ],
    tools: [
      {
        name: 'lookup',
        description: 'Look a word up',
        input_schema: { type: 'object', properties: { word: { type: 'string' } } },
        cache_control: ephemeral,
      },
    ],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Look up "gateway".', cache_control: ephemeral }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { word: 'gateway' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a server in front', cache_control: ephemeral },
        ],
      },
    ],
  })
  assert.equal(message.usage.cache_read_input_tokens, 800)
  assert.equal(message.usage.cache_creation_input_tokens, 100)
  const sent = lastBody()
  assert.deepEqual(sent.system, [
    { type: 'text', text: 'You are terse.' },
    { type: 'text', text: 'A long policy document.', cache_control: { type: 'ephemeral', ttl: '1h' } },
  ])
  assert.deepEqual((sent.tools as { cache_control?: unknown }[])[0]?.cache_control, ephemeral)
  const messages = sent.messages as { role: string; content: Record<string, unknown>[] }[]
  assert.deepEqual(messages[0]?.content, [{ type: 'text', text: 'Look up "gateway".', cache_control: ephemeral }])
  assert.deepEqual(messages[2]?.content, [
    {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [{ type: 'text', text: 'a server in front', cache_control: ephemeral }],
    },
  ])
  // 100 x $3/M + 800 x $0.30/M + 100 x $3.75/M + 10 x $15/M = 0.000300 + 0.000240 + 0.000375 + 0.000150
  const generation = await gateway.inject({
    method: 'GET',
    url: `/api/v1/generation?id=${message.id}`,
    headers: bearer(key),
  })
  assert.equal(generation.statusCode, 200, generation.body)
  const data = (generation.json() as { data: { total_cost: number; native_tokens_cached: number } }).data
  assert.equal(data.total_cost, 0.001065)
  assert.equal(data.native_tokens_cached, 800)
})

test('/chat/completions forwards cache_control on system and user content parts to Anthropic', async () => {
  upstream.script({ type: 'completion', text: 'ok', usage: { input_tokens: 50, output_tokens: 2 } })
  const client = new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, maxRetries: 0 })
  // OpenRouter's chat extension: the openai types do not declare cache_control on parts.
  const system = [{ type: 'text' as const, text: 'Reference text.', cache_control: ephemeral }]
  const user = [
    { type: 'text' as const, text: 'Question one?' },
    {
      type: 'text' as const,
      text: 'Large context.',
      cache_control: { type: 'ephemeral' as const, ttl: '5m' as const },
    },
  ]
  const completion = await client.chat.completions.create({
    model: 'test/claude',
    max_tokens: 50,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
  })
  assert.equal(completion.choices[0]?.message.content, 'ok')
  const sent = lastBody()
  assert.deepEqual(sent.system, [{ type: 'text', text: 'Reference text.', cache_control: ephemeral }])
  assert.deepEqual((sent.messages as { content: unknown }[])[0]?.content, [
    { type: 'text', text: 'Question one?' },
    { type: 'text', text: 'Large context.', cache_control: { type: 'ephemeral', ttl: '5m' } },
  ])
})

test('without breakpoints the Anthropic request keeps a plain system string', async () => {
  upstream.script({ type: 'completion', text: 'ok', usage: { input_tokens: 5, output_tokens: 1 } })
  const client = new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, maxRetries: 0 })
  await client.chat.completions.create({
    model: 'test/claude',
    messages: [
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'user', content: 'Hi' },
    ],
  })
  assert.equal(lastBody().system, 'Be brief.')
})

test('a malformed cache_control is a 400 naming it', async () => {
  const response = await gateway.inject({
    method: 'POST',
    url: '/api/v1/messages',
    headers: bearer(key),
    payload: {
      model: 'test/claude',
      max_tokens: 10,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'forever' } }] }],
    },
  })
  assert.equal(response.statusCode, 400)
  assert.match(response.body, /cache_control/)
})
