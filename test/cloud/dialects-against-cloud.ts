// Every client dialect against one cloud setup, streaming and not, with tools: the tests each cloud
// provider's e2e file registers.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { CloudSetup, CloudWorld } from './cloud-world.ts'

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

const responseTools = [
  {
    type: 'function' as const,
    name: 'get_weather',
    description: 'Weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
    strict: false,
  },
]

const messageTools = [
  {
    name: 'get_weather',
    description: 'Weather',
    input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } },
  },
]

export function dialectTests(setup: () => CloudSetup, world: () => CloudWorld, hasEmbeddings: boolean): void {
  const name = () => setup().name
  test(`openai responses, plain and streamed`, async () => {
    const model = `cloud/${name()}`
    setup().script({ type: 'completion', text: 'Hello from the cloud', usage: { input_tokens: 10, output_tokens: 4 } })
    const plain = await world().openai().responses.create({ model, input: 'Say hello', max_output_tokens: 100 })
    assert.equal(plain.output_text, 'Hello from the cloud')
    assert.equal(plain.usage?.input_tokens, 10)
    assert.equal(plain.usage?.output_tokens, 4)
    setup().script({
      type: 'completion',
      text: 'Streaming works',
      usage: { input_tokens: 5, output_tokens: 3 },
      chunks: 4,
    })
    let text = ''
    let outputTokens: number | undefined
    for await (const event of await world().openai().responses.create({ model, input: 'Stream', stream: true })) {
      if (event.type === 'response.output_text.delta') text += event.delta
      if (event.type === 'response.completed') outputTokens = event.response.usage?.output_tokens
    }
    assert.equal(text, 'Streaming works')
    assert.equal(outputTokens, 3)
  })

  test(`openai responses with a function tool, plain and streamed`, async () => {
    const model = `cloud/${name()}`
    setup().script({
      type: 'completion',
      toolCalls: [{ id: 'call_r1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
      usage: { input_tokens: 18, output_tokens: 7 },
    })
    const plain = await world().openai().responses.create({ model, input: 'Weather in Oslo?', tools: responseTools })
    assert.deepEqual(setup().sentToolNames(), ['get_weather'])
    const call = plain.output.find((item) => item.type === 'function_call')
    assert.equal(call?.type === 'function_call' && call.name, 'get_weather')
    assert.equal(call?.type === 'function_call' && call.arguments, '{"city":"Oslo"}')
    setup().script({
      type: 'completion',
      toolCalls: [{ id: 'call_r2', name: 'get_weather', arguments: '{"city":"Lima"}' }],
      usage: { input_tokens: 18, output_tokens: 7 },
      chunks: 3,
    })
    let streamedArguments = ''
    let completed: string | undefined
    const events = await world()
      .openai()
      .responses.create({ model, input: 'Weather in Lima?', tools: responseTools, stream: true })
    for await (const event of events) {
      if (event.type === 'response.function_call_arguments.delta') streamedArguments += event.delta
      if (event.type === 'response.completed')
        completed = event.response.output.find((item) => item.type === 'function_call')?.name
    }
    assert.equal(streamedArguments, '{"city":"Lima"}')
    assert.equal(completed, 'get_weather')
  })

  test(`openai chat completions, plain and streamed`, async () => {
    const model = `cloud/${name()}`
    setup().script({ type: 'completion', text: 'Chat from the cloud', usage: { input_tokens: 9, output_tokens: 4 } })
    const plain = await world()
      .openai()
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'Say hello' }] })
    assert.equal(plain.choices[0]?.message.content, 'Chat from the cloud')
    assert.equal(plain.choices[0]?.finish_reason, 'stop')
    assert.equal(plain.usage?.completion_tokens, 4)
    setup().script({ type: 'completion', text: 'Chat streamed in pieces', chunks: 4 })
    let text = ''
    const chunks = await world()
      .openai()
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'Stream' }], stream: true })
    for await (const chunk of chunks) text += chunk.choices[0]?.delta.content ?? ''
    assert.equal(text, 'Chat streamed in pieces')
  })

  test(`openai chat completions with a tool call, plain and streamed`, async () => {
    const model = `cloud/${name()}`
    setup().script({
      type: 'completion',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }],
      usage: { input_tokens: 20, output_tokens: 8 },
    })
    const plain = await world()
      .openai()
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather in Paris?' }], tools })
    assert.deepEqual(setup().sentToolNames(), ['get_weather'])
    const first = plain.choices[0]?.message.tool_calls?.[0]
    assert.equal(plain.choices[0]?.finish_reason, 'tool_calls')
    assert.equal(first?.type === 'function' && first.function.arguments, '{"city":"Paris"}')
    setup().script({
      type: 'completion',
      toolCalls: [{ id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' }],
      usage: { input_tokens: 20, output_tokens: 8 },
      chunks: 3,
    })
    const final = await world()
      .openai()
      .chat.completions.stream({ model, messages: [{ role: 'user', content: 'Weather in Rome?' }], tools })
      .finalChatCompletion()
    const call = final.choices[0]?.message.tool_calls?.[0]
    assert.equal(call?.type === 'function' && call.function.name, 'get_weather')
    assert.equal(call?.type === 'function' && call.function.arguments, '{"city":"Rome"}')
  })

  test(`anthropic messages, plain and streamed`, async () => {
    const model = `cloud/${name()}`
    setup().script({ type: 'completion', text: 'Claude-shaped answer', usage: { input_tokens: 7, output_tokens: 5 } })
    const message = await world()
      .anthropic()
      .messages.create({ model, max_tokens: 200, messages: [{ role: 'user', content: 'Hi' }] })
    assert.deepEqual(
      message.content.map((block) => (block.type === 'text' ? block.text : block.type)),
      ['Claude-shaped answer'],
    )
    assert.equal(message.stop_reason, 'end_turn')
    setup().script({
      type: 'completion',
      text: 'Streamed answer',
      usage: { input_tokens: 7, output_tokens: 5 },
      chunks: 5,
    })
    const streamed = await world()
      .anthropic()
      .messages.stream({ model, max_tokens: 200, messages: [{ role: 'user', content: 'Hi' }] })
      .finalMessage()
    assert.deepEqual(
      streamed.content.map((block) => (block.type === 'text' ? block.text : block.type)),
      ['Streamed answer'],
    )
    assert.equal(streamed.usage.output_tokens, 5)
  })

  test(`anthropic messages with a tool, plain and streamed`, async () => {
    const model = `cloud/${name()}`
    setup().script({
      type: 'completion',
      text: 'Let me check.',
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Cairo"}' }],
      usage: { input_tokens: 25, output_tokens: 11 },
    })
    const ask = { model, max_tokens: 200, tools: messageTools }
    const message = await world()
      .anthropic()
      .messages.create({ ...ask, messages: [{ role: 'user', content: 'Weather in Cairo?' }] })
    assert.deepEqual(setup().sentToolNames(), ['get_weather'])
    assert.equal(message.stop_reason, 'tool_use')
    const use = message.content.find((block) => block.type === 'tool_use')
    assert.deepEqual(use?.type === 'tool_use' && [use.name, use.input], ['get_weather', { city: 'Cairo' }])
    setup().script({
      type: 'completion',
      toolCalls: [{ id: 'toolu_2', name: 'get_weather', arguments: '{"city":"Quito"}' }],
      usage: { input_tokens: 25, output_tokens: 11 },
      chunks: 4,
    })
    const streamed = await world()
      .anthropic()
      .messages.stream({ ...ask, messages: [{ role: 'user', content: 'Weather in Quito?' }] })
      .finalMessage()
    assert.equal(streamed.stop_reason, 'tool_use')
    const streamedUse = streamed.content.find((block) => block.type === 'tool_use')
    assert.deepEqual(streamedUse?.type === 'tool_use' && streamedUse.input, { city: 'Quito' })
  })

  if (!hasEmbeddings) return
  test(`embeddings`, async () => {
    setup().script({ type: 'embeddings' })
    const answer = await world()
      .openai()
      .embeddings.create({ model: `cloud/${name()}-embed`, input: ['one', 'two'] })
    assert.equal(answer.data.length, 2)
    assert.ok(answer.data.every((item) => item.embedding.length > 0))
  })
}
