// @openrouter/sdk (1.3) over a real socket, inference and catalog calls: chat.send and responses.send
// (plain and streamed) with tools across each upstream API, then embeddings, models (list, count, get),
// providers, endpoints, generations, credits, the current key and byok. The SDK validates every answer
// with its zod schemas, so a field of the wrong type fails the call. The management families (keys,
// workspaces, guardrails, observability, presets, vault, interns) have their own SDK suites; README's
// "Supported clients" table names them.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { OpenRouter } from '@openrouter/sdk'
import type { ChatStreamChunk } from '@openrouter/sdk/models'
import { chatModel, startClientWorld, upstreamApis, type ClientWorld } from './client-world.ts'

let world: ClientWorld
let client: OpenRouter
let admin: OpenRouter

before(async () => {
  world = await startClientWorld()
  const options = { serverURL: world.baseUrl, retryConfig: { strategy: 'none' as const } }
  client = new OpenRouter({ apiKey: world.key, ...options })
  admin = new OpenRouter({ apiKey: world.adminKey, ...options })
})
after(() => world.close())

const usage = { input_tokens: 17, output_tokens: 7 }
const messages = [{ role: 'user' as const, content: 'Hi' }]
const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
}

type ChatRequest = Parameters<OpenRouter['chat']['send']>[0]['chatRequest']

/** chat.send without stream: the SDK's answer is a completion, not a stream. */
async function sendPlain(chatRequest: ChatRequest) {
  const result = await client.chat.send({ chatRequest: { ...chatRequest, stream: false } })
  assert.ok(!(Symbol.asyncIterator in result), 'a completion, not a stream')
  return result
}

/** chat.send({stream: true}): every chunk the SDK parsed. */
async function sendStream(chatRequest: ChatRequest): Promise<ChatStreamChunk[]> {
  const stream = await client.chat.send({ chatRequest: { ...chatRequest, stream: true } })
  assert.ok(Symbol.asyncIterator in stream, 'a stream')
  const chunks: ChatStreamChunk[] = []
  for await (const chunk of stream) chunks.push(chunk)
  return chunks
}

for (const api of upstreamApis) {
  const model = chatModel(api)

  test(`[${api}] chat.send: plain completion with usage, then a stream whose every chunk parses`, async () => {
    world.upstreams[api].script({ type: 'completion', text: 'Hello there', usage })
    const result = await sendPlain({ model, messages })
    assert.equal(result.choices[0]?.message.content, 'Hello there')
    assert.equal(result.choices[0]?.finishReason, 'stop')
    assert.deepEqual([result.usage?.promptTokens, result.usage?.completionTokens], [17, 7])
    world.upstreams[api].script({ type: 'completion', text: 'Streaming through', chunks: 4, usage })
    const chunks = await sendStream({ model, messages })
    assert.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'Streaming through')
    assert.equal(chunks.at(-1)?.usage?.completionTokens, 7)
  })

  test(`[${api}] chat.send with tools: the tool call, plain and streamed`, async () => {
    const toolCalls = [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]
    world.upstreams[api].script({ type: 'completion', toolCalls, usage }, { type: 'completion', toolCalls, usage })
    const chatRequest = { model, messages, tools: [weatherTool] }
    const result = await sendPlain(chatRequest)
    const call = result.choices[0]?.message.toolCalls?.[0]
    assert.deepEqual(
      [call?.function.name, JSON.parse(call?.function.arguments ?? '')],
      ['get_weather', { city: 'Paris' }],
    )
    const chunks = await sendStream(chatRequest)
    const args = chunks.map((chunk) => chunk.choices[0]?.delta.toolCalls?.[0]?.function?.arguments ?? '').join('')
    assert.deepEqual(JSON.parse(args), { city: 'Paris' })
  })

  test(`[${api}] responses.send: plain with output text and usage, then a stream of events`, async () => {
    world.upstreams[api].script({ type: 'completion', text: 'Hello from responses', usage })
    const response = await client.responses.send({ responsesRequest: { model, input: 'Hi', stream: false } })
    assert.ok(!(Symbol.asyncIterator in response))
    assert.equal(response.status, 'completed')
    assert.equal(response.outputText, 'Hello from responses')
    assert.deepEqual([response.usage?.inputTokens, response.usage?.outputTokens], [17, 7])
    world.upstreams[api].script({ type: 'completion', text: 'Streamed', chunks: 3, usage })
    const stream = await client.responses.send({ responsesRequest: { model, input: 'Hi', stream: true } })
    assert.ok(Symbol.asyncIterator in stream, 'a stream')
    const events: { type: string; delta?: string }[] = []
    for await (const event of stream as AsyncIterable<{ type: string; delta?: string }>) events.push(event)
    assert.deepEqual([events[0]?.type, events.at(-1)?.type], ['response.created', 'response.completed'])
    const text = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta)
    assert.equal(text.join(''), 'Streamed')
  })
}

test('embeddings.generate reads the vector and the usage', async () => {
  world.upstream.script({ type: 'embeddings', vectors: [[0.5, -1]] })
  const result = await client.embeddings.generate({ requestBody: { model: 'test/embed', input: 'a sentence' } })
  const body = result as unknown as { data: { embedding: number[] }[]; usage: { promptTokens: number } }
  assert.deepEqual(body.data[0]?.embedding, [0.5, -1])
  assert.ok(body.usage.promptTokens > 0)
})

test('models.list, models.count, models.get, providers.list and endpoints.list', async () => {
  const listed = await client.models.list()
  const ids = listed.result.data.map((model) => model.id)
  for (const api of upstreamApis) assert.ok(ids.includes(chatModel(api)), ids.join())
  assert.equal((await client.models.count()).data.count, listed.result.totalCount)
  const one = await client.models.get({ author: 'test', slug: 'chat-gemini' })
  assert.equal(one.data.id, 'test/chat-gemini')
  assert.equal(one.data.topProvider.maxCompletionTokens, 1000)
  const providers = await client.providers.list()
  for (const api of upstreamApis) assert.ok(providers.data.some((provider) => provider.slug === `fake-${api}`))
  const endpoints = await client.endpoints.list({ author: 'test', slug: 'chat-anthropic' })
  assert.deepEqual(
    endpoints.data.endpoints.map((endpoint) => endpoint.tag),
    ['fake-anthropic'],
  )
})

test('generations.getGeneration and listGenerationContent read a generation made through chat.send', async () => {
  world.upstreams.gemini.script({ type: 'completion', text: 'Remember me', usage })
  const result = await sendPlain({ model: chatModel('gemini'), messages })
  const generation = await client.generations.getGeneration({ id: result.id })
  assert.equal(generation.data.id, result.id)
  assert.equal(generation.data.model, chatModel('gemini'))
  assert.equal(generation.data.tokensCompletion, 7)
  const content = await client.generations.listGenerationContent({ id: result.id })
  assert.equal(content.data.output.completion, 'Remember me')
})

test('credits.getCredits, apiKeys.getCurrentKeyMetadata and byok.list parse', async () => {
  const credits = await admin.credits.getCredits()
  assert.equal(typeof credits.data.totalCredits, 'number')
  assert.ok(credits.data.totalUsage >= 0)
  const current = await client.apiKeys.getCurrentKeyMetadata()
  assert.equal(current.data.isManagementKey, false)
  assert.ok(current.data.usage > 0, 'the calls above were billed to this key')
  const byok = await admin.byok.list()
  assert.deepEqual(byok.result.data, [])
})
