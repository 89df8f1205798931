// End to end: the official SDKs over a real socket, every client format against every provider API,
// through auth, routing, accounting, generation records.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import Anthropic from '@anthropic-ai/sdk'
import { OpenRouter } from '@openrouter/sdk'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import type { ProviderApi } from '../../src/domain/inference/provider-api.ts'
import { waitFor } from '../support/wait-for.ts'

const apis: ProviderApi[] = ['openai-chat', 'openai-responses', 'anthropic', 'gemini', 'azure-openai']
const upstreams = new Map<ProviderApi, FakeUpstream>()
let gateway: TestGateway
let base: string
let key: string
let keyHash: string

before(async () => {
  for (const api of apis) upstreams.set(api, await startFakeUpstream({ api, apiKey: 'upstream-secret' }))
  const providers = apis
    .map(
      (api) =>
        `  - { slug: ${api}, name: "Fake ${api}", api: ${api}, base_url: "${upstreams.get(api)!.url}", api_key: upstream-secret }`,
    )
    .join('\n')
  const models = apis
    .map(
      (api) =>
        `  - slug: test/${api}\n    endpoints:\n      - { provider: ${api}, upstream_model_id: up-${api}, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002", input_cache_read: "0.0000001" } }`,
    )
    .join('\n')
  const batches = 'batches: { poll_interval_ms: 50 }'
  gateway = await startTestGateway({ yaml: `providers:\n${providers}\nmodels:\n${models}\n${batches}\n` })
  base = await gateway.listen()
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'e2e', limit: 5 },
  })
  assert.equal(created.statusCode, 201, created.body)
  key = (created.json() as { key: string }).key
  keyHash = (created.json() as { data: { hash: string } }).data.hash
})
after(async () => {
  await gateway.close()
  await Promise.all([...upstreams.values()].map((upstream) => upstream.close()))
})

const openai = () => new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, maxRetries: 0 })
const anthropic = () => new Anthropic({ apiKey: key, baseURL: `${base}/api`, maxRetries: 0 })

for (const api of apis) {
  test(`openai responses (plain and stream) through ${api}`, async () => {
    const upstream = upstreams.get(api)!
    upstream.script({ type: 'completion', text: 'Hello from upstream', usage: { input_tokens: 10, output_tokens: 4 } })
    const plain = await openai().responses.create({ model: `test/${api}`, input: 'Say hello', max_output_tokens: 100 })
    assert.equal(plain.output_text, 'Hello from upstream')
    assert.match(plain.id, /^gen-/)
    assert.equal(plain.usage?.input_tokens, 10)
    assert.equal((plain.usage as unknown as { cost: number }).cost, 0.000018)
    assert.equal(
      (upstream.requests.at(-1)?.body as { model?: string } | undefined)?.model ?? 'up-gemini',
      api === 'gemini' ? 'up-gemini' : `up-${api}`,
    )

    upstream.script({
      type: 'completion',
      text: 'Streaming works',
      usage: { input_tokens: 5, output_tokens: 3 },
      chunks: 4,
    })
    const stream = await openai().responses.create({ model: `test/${api}`, input: 'Stream please', stream: true })
    let text = ''
    let completed: { usage?: { output_tokens: number } } | undefined
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta
      if (event.type === 'response.completed') completed = event.response
    }
    assert.equal(text, 'Streaming works')
    assert.equal(completed?.usage?.output_tokens, 3)
  })

  test(`openai chat completions with a streamed tool call through ${api}`, async () => {
    const upstream = upstreams.get(api)!
    const tools = [
      {
        type: 'function' as const,
        function: {
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ]
    upstream.script({
      type: 'completion',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      usage: { input_tokens: 20, output_tokens: 8 },
    })
    const plain = await openai().chat.completions.create({
      model: `test/${api}`,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools,
    })
    assert.equal(plain.choices[0]?.finish_reason, 'tool_calls')
    assert.equal(
      plain.choices[0]?.message.tool_calls?.[0]?.type === 'function' &&
        plain.choices[0].message.tool_calls[0].function.arguments,
      '{"city":"Paris"}',
    )

    upstream.script({
      type: 'completion',
      toolCalls: [{ id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' }],
      usage: { input_tokens: 20, output_tokens: 8 },
    })
    const final = await openai()
      .chat.completions.stream({
        model: `test/${api}`,
        messages: [{ role: 'user', content: 'Weather in Rome?' }],
        tools,
      })
      .finalChatCompletion()
    const call = final.choices[0]?.message.tool_calls?.[0]
    assert.equal(call?.type === 'function' && call.function.name, 'get_weather')
    assert.equal(call?.type === 'function' && call.function.arguments, '{"city":"Rome"}')
  })

  test(`anthropic messages (plain and stream) through ${api}`, async () => {
    const upstream = upstreams.get(api)!
    upstream.script({ type: 'completion', text: 'Claude-shaped answer', usage: { input_tokens: 7, output_tokens: 5 } })
    const message = await anthropic().messages.create({
      model: `test/${api}`,
      max_tokens: 200,
      messages: [{ role: 'user', content: 'Hi' }],
    })
    assert.deepEqual(
      message.content.map((block) => (block.type === 'text' ? block.text : block.type)),
      ['Claude-shaped answer'],
    )
    assert.equal(message.stop_reason, 'end_turn')
    upstream.script({
      type: 'completion',
      text: 'Streamed Claude answer',
      usage: { input_tokens: 7, output_tokens: 5 },
      chunks: 5,
    })
    const streamed = await anthropic()
      .messages.stream({ model: `test/${api}`, max_tokens: 200, messages: [{ role: 'user', content: 'Hi' }] })
      .finalMessage()
    assert.deepEqual(
      streamed.content.map((block) => (block.type === 'text' ? block.text : block.type)),
      ['Streamed Claude answer'],
    )
    assert.equal(streamed.usage.output_tokens, 5)
  })
}

test('the OpenRouter SDK sends responses and reads the generation back', async () => {
  upstreams
    .get('openai-chat')!
    .script({ type: 'completion', text: 'via openrouter sdk', usage: { input_tokens: 3, output_tokens: 3 } })
  const client = new OpenRouter({ apiKey: key, serverURL: `${base}/api/v1` })
  const response = (await client.responses.send({
    responsesRequest: { model: 'test/openai-chat', input: 'hi' },
  })) as unknown as { id: string; outputText?: string }
  assert.match(response.id, /^gen-/)
  const generation = await client.generations.getGeneration({ id: response.id })
  assert.equal(generation.data.model, 'test/openai-chat')
  assert.equal(generation.data.tokensCompletion, 3)
  const content = await client.generations.listGenerationContent({ id: response.id })
  assert.equal(content.data.output.completion, 'via openrouter sdk')
})

test('the OpenRouter SDK streams chat.send({stream: true}), routing metadata included', async () => {
  const upstream = upstreams.get('anthropic')!
  upstream.script({
    type: 'completion',
    text: 'streamed via sdk',
    usage: { input_tokens: 4, output_tokens: 3 },
    chunks: 3,
  })
  const client = new OpenRouter({ apiKey: key, serverURL: `${base}/api/v1` })
  const stream = await client.chat.send({
    xOpenRouterMetadata: 'enabled',
    chatRequest: { model: 'test/anthropic', messages: [{ role: 'user', content: 'hi' }], stream: true },
  })
  assert.ok(Symbol.asyncIterator in stream, 'a stream')
  const chunks = []
  for await (const chunk of stream) chunks.push(chunk)
  assert.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'streamed via sdk')
  assert.equal(chunks.at(-1)?.usage?.completionTokens, 3)
  assert.ok(chunks.some((chunk) => chunk.openrouterMetadata !== undefined))
})

test('openrouter_metadata appears only when asked for', async () => {
  upstreams.get('openai-chat')!.script({ type: 'error', status: 500 })
  const chatAndResponses = await fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json', 'x-openrouter-metadata': 'enabled' },
    body: JSON.stringify({
      models: ['test/openai-chat', 'test/anthropic'],
      messages: [{ role: 'user', content: 'hi' }],
    }),
  })
  const body = (await chatAndResponses.json()) as {
    openrouter_metadata?: { attempts: { provider: string; status: number }[]; strategy: string }
  }
  assert.equal(chatAndResponses.status, 200)
  assert.deepEqual(
    body.openrouter_metadata?.attempts.map((attempt) => [attempt.provider, attempt.status]),
    [
      ['openai-chat', 500],
      ['anthropic', 200],
    ],
  )
  assert.equal(body.openrouter_metadata?.strategy, 'fallback')
  const plain = await fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/anthropic', messages: [{ role: 'user', content: 'hi' }] }),
  })
  assert.equal('openrouter_metadata' in ((await plain.json()) as object), false)
})

test('answered means recorded: once the client has the whole answer, its ledger row and generation record are stored', async () => {
  const recorded = async (generationId: string): Promise<{ generations: number; ledger: number }> => ({
    generations: (
      await gateway.store.db.selectFrom('generations').select('id').where('id', '=', generationId).execute()
    ).length,
    ledger: (
      await gateway.store.db
        .selectFrom('ledger_entries')
        .select('id')
        .where('generation_id', '=', generationId)
        .execute()
    ).length,
  })
  for (const stream of [false, true]) {
    const response = await fetch(`${base}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test/openai-chat', stream, messages: [{ role: 'user', content: 'hi' }] }),
    })
    assert.equal(response.status, 200)
    const text = await response.text()
    if (stream) assert.ok(text.trimEnd().endsWith('data: [DONE]'), 'the whole stream was read')
    const generationId = response.headers.get('x-generation-id')!
    assert.deepEqual(await recorded(generationId), { generations: 1, ledger: 1 }, `stream: ${stream}`)
  }
})

test('spend: the key usage and the ledger equal upstream usage times the configured prices', async () => {
  await gateway.drained()
  const rows = await gateway.store.db
    .selectFrom('generations')
    .select(['id', 'cost_nano', 'tokens_prompt', 'tokens_completion', 'tokens_cached', 'status'])
    .where('key_hash', '=', keyHash)
    .execute()
  let expected = 0n
  for (const row of rows) {
    const uncached = BigInt(row.tokens_prompt - row.tokens_cached)
    expected += uncached * 1000n + BigInt(row.tokens_cached) * 100n + BigInt(row.tokens_completion) * 2000n
    assert.equal(
      BigInt(row.cost_nano),
      uncached * 1000n + BigInt(row.tokens_cached) * 100n + BigInt(row.tokens_completion) * 2000n,
      row.id,
    )
  }
  const total = rows.reduce((sum, row) => sum + BigInt(row.cost_nano), 0n)
  assert.equal(total, expected)
  const keyView = (
    await gateway.inject({ method: 'GET', url: `/api/v1/keys/${keyHash}`, headers: bearer(gateway.adminKey) })
  ).json() as { data: { usage: number } }
  assert.equal(Math.round(keyView.data.usage * 1e9), Number(total))
  const ledger = await gateway.store.db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('key_hash', '=', keyHash)
    .execute()
  const ledgerTotal = ledger.reduce((sum, row) => sum + BigInt((row as { cost_nano: string | number }).cost_nano), 0n)
  assert.equal(ledgerTotal, total)
})

test('a management key cannot call inference; a key over its limit gets 402', async () => {
  const refused = await fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(gateway.adminKey), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/openai-chat', messages: [{ role: 'user', content: 'hi' }] }),
  })
  assert.equal(refused.status, 403)
  const tiny = (
    await gateway.inject({
      method: 'POST',
      url: '/api/v1/keys',
      headers: bearer(gateway.adminKey),
      payload: { name: 'tiny', limit: 0.000001 },
    })
  ).json() as { key: string }
  const poor = await fetch(`${base}/api/v1/responses`, {
    method: 'POST',
    headers: { ...bearer(tiny.key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/openai-chat', input: 'hi', max_output_tokens: 1000 }),
  })
  assert.equal(poor.status, 402)
  assert.match(((await poor.json()) as { error: { message: string } }).error.message, /limit/i)
})

test('unknown model 404, bad body 400 naming the field, both in the envelope', async () => {
  const unknown = await fetch(`${base}/api/v1/responses`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/nope', input: 'hi' }),
  })
  assert.equal(unknown.status, 404)
  const bad = await fetch(`${base}/api/v1/responses`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/openai-chat', input: 'hi', previous_response_id: 'resp_1' }),
  })
  assert.equal(bad.status, 400)
  assert.match(((await bad.json()) as { error: { message: string } }).error.message, /previous_response_id/)
})

test('in-process invocation runs the same pipeline (a batch line)', async () => {
  upstreams
    .get('anthropic')!
    .script({ type: 'completion', text: 'in process', usage: { input_tokens: 2, output_tokens: 2 } })
  const calls = upstreams.get('anthropic')!.requests.length
  const submitted = await gateway.inject({
    method: 'POST',
    url: '/api/v1/batches',
    headers: bearer(key),
    payload: {
      endpoint: '/v1/chat/completions',
      model: 'test/anthropic',
      completion_window: '24h',
      requests: [{ custom_id: 'only', body: { messages: [{ role: 'user', content: 'hi' }] } }],
    },
  })
  assert.equal(submitted.statusCode, 202, submitted.body)
  const id = (submitted.json() as { id: string }).id
  interface Finished {
    status: string
    results: { response: { status_code: number; body: { id: string; choices: { message: { content: string } }[] } } }[]
  }
  const finished = await waitFor(async () => {
    const answer = (
      await gateway.inject({ method: 'GET', url: `/api/v1/batches/${id}`, headers: bearer(key) })
    ).json() as Finished
    return answer.results === null ? undefined : answer
  }, 'the finished batch')
  assert.equal(finished.status, 'completed')
  const line = finished.results[0]!.response
  assert.equal(line.status_code, 200)
  assert.equal(line.body.choices[0]?.message.content, 'in process')
  assert.equal(upstreams.get('anthropic')!.requests.length, calls + 1, 'the line went to the Anthropic upstream')
  const stored = await waitFor(() => gateway.findGeneration(line.body.id), 'the generation record')
  assert.equal(stored?.record.dialect, 'openai-chat')
})
