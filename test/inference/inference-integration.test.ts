// Inference meets the other areas: reasoning across formats, presets and redaction on /responses, and
// observability delivery of a real generation.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { startRecordingServer } from '../observability/support/recording-server.ts'
import { waitFor } from '../support/wait-for.ts'

let gateway: TestGateway
let anthropicUpstream: FakeUpstream
let chatUpstream: FakeUpstream
let base: string
let key: string
let keyHash: string

before(async () => {
  anthropicUpstream = await startFakeUpstream({ api: 'anthropic' })
  chatUpstream = await startFakeUpstream({ api: 'openai-chat' })
  gateway = await startTestGateway({
    yaml:
      'egress:\n  allow_private_networks: true\nobservability:\n  delivery:\n    poll_interval_ms: 10\n' +
      `providers:\n  - { slug: claude, api: anthropic, base_url: "${anthropicUpstream.url}", api_key: k }\n  - { slug: chat, api: openai-chat, base_url: "${chatUpstream.url}" }\n` +
      'models:\n  - slug: test/thinker\n    endpoints:\n      - { provider: claude, upstream_model_id: claude-x, max_output_tokens: 2000, pricing: { prompt: "0.000003", completion: "0.000015" } }\n' +
      '  - slug: test/chat\n    endpoints:\n      - { provider: chat, upstream_model_id: c1, max_output_tokens: 500, pricing: { prompt: "0.000001", completion: "0.000001" } }\n',
  })
  base = await gateway.listen()
  const created = (
    await gateway.inject({
      method: 'POST',
      url: '/api/v1/keys',
      headers: bearer(gateway.adminKey),
      payload: { name: 'integration' },
    })
  ).json() as { key: string; data: { hash: string } }
  key = created.key
  keyHash = created.data.hash
})
after(async () => {
  await gateway.close()
  await anthropicUpstream.close()
  await chatUpstream.close()
})

test('reasoning from an Anthropic upstream reaches Responses and Messages clients, with its signature', async () => {
  anthropicUpstream.script({
    type: 'completion',
    reasoning: 'Let me think step by step.',
    reasoningSignature: 'sig-123',
    text: 'The answer is 4.',
    usage: { input_tokens: 9, output_tokens: 30, reasoning_tokens: 12 },
  })
  const openai = new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, maxRetries: 0 })
  const response = await openai.responses.create({ model: 'test/thinker', input: '2+2?', reasoning: { effort: 'low' } })
  const reasoning = response.output.find((item) => item.type === 'reasoning')
  assert.ok(reasoning !== undefined, JSON.stringify(response.output))
  assert.match(JSON.stringify(reasoning), /Let me think step by step\./)
  assert.equal(response.output_text, 'The answer is 4.')

  anthropicUpstream.script({
    type: 'completion',
    reasoning: 'Thinking in a stream.',
    reasoningSignature: 'sig-456',
    text: 'Done.',
    chunks: 4,
  })
  const anthropic = new Anthropic({ apiKey: key, baseURL: `${base}/api`, maxRetries: 0 })
  const message = await anthropic.messages
    .stream({
      model: 'test/thinker',
      max_tokens: 1500,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'hi' }],
    })
    .finalMessage()
  const thinking = message.content.find((block) => block.type === 'thinking')
  assert.ok(thinking?.type === 'thinking')
  assert.equal(thinking.thinking, 'Thinking in a stream.')
  assert.equal(thinking.signature, 'sig-456')
  const sent = anthropicUpstream.requests.at(-1)?.body as { thinking?: { type: string } }
  assert.equal(sent.thinking?.type, 'enabled')
})

test('a preset applies to /responses: the upstream request shows the merged config', async () => {
  const saved = await gateway.inject({
    method: 'POST',
    url: '/api/v1/presets/terse/responses',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: {
      model: 'test/chat',
      instructions: 'Answer in one word.',
      temperature: 0.2,
      max_output_tokens: 50,
      input: 'ignored',
    },
  })
  assert.equal(saved.statusCode, 200, saved.body)
  await gateway.drained()
  const answered = await gateway.inject({
    method: 'POST',
    url: '/api/v1/responses',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { model: '@preset/terse', input: 'Capital of France?' },
  })
  assert.equal(answered.statusCode, 200, answered.body)
  const upstream = chatUpstream.requests.at(-1)?.body as {
    model: string
    temperature: number
    messages: { role: string; content: unknown }[]
    max_completion_tokens?: number
  }
  assert.equal(upstream.model, 'c1')
  assert.equal(upstream.temperature, 0.2)
  assert.equal(upstream.max_completion_tokens, 50)
  assert.equal(upstream.messages[0]?.role, 'system')
  assert.match(JSON.stringify(upstream.messages[0]), /Answer in one word\./)
  const generationId = String(answered.headers['x-generation-id'])
  const generation = await waitFor(() => gateway.findGeneration(generationId), 'the generation record')
  assert.equal(generation?.record.preset, 'terse')
})

test('guardrail redaction on /responses: the upstream never sees the original', async () => {
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/guardrails',
    headers: bearer(gateway.adminKey),
    payload: { name: 'pii', content_filter_builtins: [{ slug: 'ssn', action: 'redact' }] },
  })
  assert.equal(created.statusCode, 201, created.body)
  const guardrail = created.json() as { data: { id: string } }
  const assigned = await gateway.inject({
    method: 'POST',
    url: `/api/v1/guardrails/${guardrail.data.id}/assignments/keys`,
    headers: bearer(gateway.adminKey),
    payload: { key_hashes: [keyHash] },
  })
  assert.equal(assigned.statusCode, 200, assigned.body)
  await gateway.drained()
  const answered = await gateway.inject({
    method: 'POST',
    url: '/api/v1/responses',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { model: 'test/chat', input: [{ role: 'user', content: 'My SSN is 123-45-6789.' }] },
  })
  assert.equal(answered.statusCode, 200, answered.body)
  const seen = JSON.stringify(chatUpstream.requests.at(-1)?.body)
  assert.ok(!seen.includes('123-45-6789'), `the key's guardrail redacts once drained() has the assignment: ${seen}`)
  await gateway.inject({
    method: 'DELETE',
    url: `/api/v1/guardrails/${guardrail.data.id}`,
    headers: bearer(gateway.adminKey),
  })
  await gateway.drained()
})

test('a generation is delivered to an enabled webhook destination of its workspace', async () => {
  const receiver = await startRecordingServer()
  try {
    const created = await gateway.inject({
      method: 'POST',
      url: '/api/v1/observability/destinations',
      headers: bearer(gateway.adminKey),
      payload: {
        name: 'hook',
        type: 'webhook',
        config: { url: `${receiver.url}/hook` },
        broadcast_generation_cost: true,
      },
    })
    assert.equal(created.statusCode, 201, created.body)
    chatUpstream.script({ type: 'completion', text: 'observed answer', usage: { input_tokens: 11, output_tokens: 6 } })
    const answered = await gateway.inject({
      method: 'POST',
      url: '/api/v1/chat/completions',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      payload: { model: 'test/chat', messages: [{ role: 'user', content: 'observe me' }] },
    })
    const generationId = String(answered.headers['x-generation-id'])
    const deadline = Date.now() + 20_000
    while (
      !receiver.requests.some((request) => request.body.toString('utf8').includes(generationId)) &&
      Date.now() < deadline
    )
      await new Promise((resolve) => setTimeout(resolve, 25))
    const delivered = receiver.requests.find((request) => request.body.toString('utf8').includes(generationId))
    assert.ok(delivered !== undefined, 'the webhook received the generation')
    assert.match(delivered.body.toString('utf8'), /observed answer/)
    assert.match(delivered.body.toString('utf8'), /test\/chat/)
  } finally {
    await receiver.close()
  }
})
