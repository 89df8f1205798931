// The `openai` SDK (6.x) over a real socket, every call it makes that the gateway serves: chat and
// responses (plain and streamed), tools and structured output (json_schema) across each upstream API, then
// embeddings and models list/retrieve. A call the SDK rejects, or an answer it reads wrongly, fails.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { chatModel, startClientWorld, upstreamApis, type ClientWorld, type UpstreamApi } from './client-world.ts'

let world: ClientWorld
let client: OpenAI

before(async () => {
  world = await startClientWorld()
  client = new OpenAI({ apiKey: world.key, baseURL: world.baseUrl, maxRetries: 0 })
})
after(() => world.close())

const usage = { input_tokens: 11, output_tokens: 5 }
const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'The weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
}
const personFormat = {
  type: 'json_schema' as const,
  json_schema: {
    name: 'person',
    strict: true,
    schema: {
      type: 'object',
      properties: { name: { type: 'string' }, age: { type: 'number' } },
      required: ['name', 'age'],
      additionalProperties: false,
    },
  },
}

/** The path and body the upstream of `api` received last, as text (each API names things its own way). */
const lastUpstreamBody = (api: UpstreamApi) => {
  const request = world.upstreams[api].requests.at(-1)
  return `${request?.path} ${request?.rawBody}`
}

for (const api of upstreamApis) {
  const model = chatModel(api)

  test(`[${api}] chat.completions.create: text, finish reason, usage, the slug as model`, async () => {
    world.upstreams[api].script({ type: 'completion', text: 'Hello there', usage })
    const completion = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] })
    assert.equal(completion.object, 'chat.completion')
    assert.equal(completion.model, model)
    assert.equal(completion.choices[0]?.message.content, 'Hello there')
    assert.equal(completion.choices[0]?.finish_reason, 'stop')
    assert.deepEqual([completion.usage?.prompt_tokens, completion.usage?.completion_tokens], [11, 5])
    assert.match(lastUpstreamBody(api), new RegExp(`up-${api}`))
  })

  test(`[${api}] chat.completions.create({stream: true}) and .stream(): every chunk parses, text and usage arrive`, async () => {
    world.upstreams[api].script({ type: 'completion', text: 'Streaming through', chunks: 4, usage })
    const stream = await client.chat.completions.create({
      model,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Hi' }],
    })
    let text = ''
    let lastUsage: OpenAI.CompletionUsage | null | undefined
    for await (const chunk of stream) {
      assert.equal(chunk.object, 'chat.completion.chunk')
      text += chunk.choices[0]?.delta.content ?? ''
      lastUsage = chunk.usage ?? lastUsage
    }
    assert.equal(text, 'Streaming through')
    assert.equal(lastUsage?.completion_tokens, 5)
    world.upstreams[api].script({ type: 'completion', text: 'Helper stream', usage })
    const final = await client.chat.completions
      .stream({ model, messages: [{ role: 'user', content: 'Hi' }] })
      .finalChatCompletion()
    assert.equal(final.choices[0]?.message.content, 'Helper stream')
    assert.equal(final.choices[0]?.finish_reason, 'stop')
  })

  test(`[${api}] tools: the call reaches the upstream and the SDK reads the tool call, plain and streamed`, async () => {
    const toolCalls = [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]
    world.upstreams[api].script({ type: 'completion', toolCalls, usage })
    const params = { model, tools: [weatherTool], messages: [{ role: 'user' as const, content: 'Weather in Paris?' }] }
    const completion = await client.chat.completions.create(params)
    assert.match(lastUpstreamBody(api), /get_weather/)
    assert.equal(completion.choices[0]?.finish_reason, 'tool_calls')
    const call = completion.choices[0]?.message.tool_calls?.[0]
    assert.ok(call?.type === 'function')
    assert.deepEqual([call.function.name, JSON.parse(call.function.arguments)], ['get_weather', { city: 'Paris' }])
    world.upstreams[api].script({ type: 'completion', toolCalls, chunks: 3, usage })
    const streamed = await client.chat.completions.stream(params).finalChatCompletion()
    const streamedCall = streamed.choices[0]?.message.tool_calls?.[0]
    assert.ok(streamedCall?.type === 'function')
    assert.deepEqual(JSON.parse(streamedCall.function.arguments), { city: 'Paris' })
  })

  test(`[${api}] structured output: response_format json_schema reaches the upstream and .parse() reads it`, async () => {
    world.upstreams[api].script({ type: 'completion', text: '{"name":"Ada","age":36}', usage })
    const parsed = await client.chat.completions.parse({
      model,
      response_format: personFormat,
      messages: [{ role: 'user', content: 'A person' }],
    })
    assert.deepEqual(parsed.choices[0]?.message.parsed, { name: 'Ada', age: 36 })
    assert.match(lastUpstreamBody(api), /"age"/, 'the schema is forwarded')
  })

  test(`[${api}] responses.create, plain and streamed: output text, usage, the event sequence`, async () => {
    world.upstreams[api].script({ type: 'completion', text: 'Hello from responses', usage })
    const response = await client.responses.create({ model, input: 'Hi' })
    assert.equal(response.object, 'response')
    assert.equal(response.status, 'completed')
    assert.equal(response.output_text, 'Hello from responses')
    assert.deepEqual([response.usage?.input_tokens, response.usage?.output_tokens], [11, 5])
    world.upstreams[api].script({ type: 'completion', text: 'Streamed response', chunks: 4, usage })
    const stream = await client.responses.create({ model, input: 'Hi', stream: true })
    const types: string[] = []
    let text = ''
    for await (const event of stream) {
      types.push(event.type)
      if (event.type === 'response.output_text.delta') text += event.delta
    }
    assert.equal(text, 'Streamed response')
    assert.deepEqual([types[0], types.at(-1)], ['response.created', 'response.completed'])
    world.upstreams[api].script({ type: 'completion', text: 'Helper', usage })
    const final = await client.responses.stream({ model, input: 'Hi' }).finalResponse()
    assert.equal(final.output_text, 'Helper')
  })

  test(`[${api}] responses with a function tool: the SDK reads the function_call item`, async () => {
    world.upstreams[api].script({
      type: 'completion',
      toolCalls: [{ id: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
      usage,
    })
    const response = await client.responses.create({
      model,
      input: 'Weather in Oslo?',
      tools: [{ type: 'function', strict: false, ...weatherTool.function }],
    })
    const call = response.output.find((item) => item.type === 'function_call')
    assert.ok(call?.type === 'function_call', JSON.stringify(response.output))
    assert.deepEqual([call.name, JSON.parse(call.arguments)], ['get_weather', { city: 'Oslo' }])
  })
}

test('embeddings.create: vectors (float and base64) and usage', async () => {
  world.upstream.script({ type: 'embeddings', vectors: [[0.25, -0.5, 1]] })
  const floats = await client.embeddings.create({ model: 'test/embed', input: 'a sentence', encoding_format: 'float' })
  assert.deepEqual(floats.data[0]?.embedding, [0.25, -0.5, 1])
  assert.ok(floats.usage.prompt_tokens > 0)
  world.upstream.script({ type: 'embeddings', vectors: [[0.25, -0.5, 1]] })
  // Without encoding_format the SDK asks for base64 and decodes it itself.
  const decoded = await client.embeddings.create({ model: 'test/embed', input: 'a sentence' })
  assert.deepEqual(decoded.data[0]?.embedding, [0.25, -0.5, 1])
})

test('models.list pages every text model; models.retrieve reads one by its vendor/model slug', async () => {
  const ids: string[] = []
  for await (const model of client.models.list()) ids.push(model.id)
  for (const api of upstreamApis) assert.ok(ids.includes(chatModel(api)), ids.join())
  const retrieved = await client.models.retrieve('test/chat-anthropic')
  assert.equal(retrieved.id, 'test/chat-anthropic')
  await assert.rejects(client.models.retrieve('test/missing'), OpenAI.NotFoundError)
})
