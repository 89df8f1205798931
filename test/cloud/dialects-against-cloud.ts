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
