// The Vercel AI SDK (`ai`) with the OpenRouter provider (@openrouter/ai-sdk-provider) over a real socket:
// generateText, streamText, tools, generateObject and embed must accept every answer of the gateway.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { embed, generateObject, generateText, jsonSchema, streamText, tool } from 'ai'
import { createOpenRouter, type OpenRouterProvider } from '@openrouter/ai-sdk-provider'
import { z } from 'zod'
import { startClientWorld, type ClientWorld } from './client-world.ts'

let world: ClientWorld
let openrouter: OpenRouterProvider

before(async () => {
  world = await startClientWorld()
  openrouter = createOpenRouter({ apiKey: world.key, baseURL: world.baseUrl })
})
after(() => world.close())

const lastRequest = () => world.upstream.requests.at(-1)?.body as Record<string, unknown>

test('generateText reads the text, finish reason and usage', async () => {
  world.upstream.script({
    type: 'completion',
    text: 'Hello from the gateway',
    usage: { input_tokens: 12, output_tokens: 4 },
  })
  const result = await generateText({ model: openrouter.chat('test/chat'), prompt: 'Say hello', maxOutputTokens: 50 })
  assert.equal(result.text, 'Hello from the gateway')
  assert.equal(result.finishReason, 'stop')
  assert.equal(result.usage.inputTokens, 12)
  assert.equal(result.usage.outputTokens, 4)
  assert.equal(lastRequest().model, 'up-chat')
})

test('streamText reads every delta and the usage', async () => {
  world.upstream.script({
    type: 'completion',
    text: 'Streaming through',
    chunks: 4,
    usage: { input_tokens: 8, output_tokens: 3 },
  })
  const result = streamText({ model: openrouter.chat('test/chat'), prompt: 'Stream please' })
  let text = ''
  for await (const delta of result.textStream) text += delta
  assert.equal(text, 'Streaming through')
  assert.equal((await result.usage).outputTokens, 3)
  assert.equal(await result.finishReason, 'stop')
})

test('tools: generateText reads the tool call and its arguments', async () => {
  world.upstream.script({
    type: 'completion',
    toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
    usage: { input_tokens: 20, output_tokens: 9 },
  })
  const result = await generateText({
    model: openrouter.chat('test/chat'),
    prompt: 'Weather in Paris?',
    tools: {
      get_weather: tool({
        description: 'The weather of a city',
        inputSchema: jsonSchema<{ city: string }>({
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        }),
      }),
    },
  })
  assert.equal(result.finishReason, 'tool-calls')
  assert.deepEqual(
    result.toolCalls.map((call) => [call.toolCallId, call.toolName, call.input]),
    [['call_1', 'get_weather', { city: 'Paris' }]],
  )
  const sentTools = lastRequest().tools as { function: { name: string } }[]
  assert.equal(sentTools[0]?.function.name, 'get_weather')
})

test('streamText with tools reads the streamed tool call', async () => {
  world.upstream.script({
    type: 'completion',
    toolCalls: [{ id: 'call_2', name: 'get_time', arguments: '{"tz":"CET"}' }],
    chunks: 3,
  })
  const result = streamText({
    model: openrouter.chat('test/chat'),
    prompt: 'Time?',
    tools: {
      get_time: tool({
        inputSchema: jsonSchema<{ tz: string }>({ type: 'object', properties: { tz: { type: 'string' } } }),
      }),
    },
  })
  const calls = await result.toolCalls
  assert.deepEqual(
    calls.map((call) => [call.toolName, call.input]),
    [['get_time', { tz: 'CET' }]],
  )
})

test('generateObject parses the structured answer', async () => {
  world.upstream.script({ type: 'completion', text: '{"name":"Ada","age":36}' })
  const result = await generateObject({
    model: openrouter.chat('test/chat'),
    schema: z.object({ name: z.string(), age: z.number() }),
    prompt: 'A person',
  })
  assert.deepEqual(result.object, { name: 'Ada', age: 36 })
  const format = lastRequest().response_format as { type?: string } | undefined
  assert.equal(format?.type, 'json_schema')
})

test('embed reads the vector and the usage', async () => {
  world.upstream.script({ type: 'embeddings', vectors: [[0.25, -0.5, 1]] })
  const result = await embed({ model: openrouter.textEmbeddingModel('test/embed'), value: 'a sentence to embed' })
  assert.deepEqual(result.embedding, [0.25, -0.5, 1])
  assert.ok((result.usage?.tokens ?? 0) > 0)
})
