// @langchain/openai (ChatOpenAI, OpenAIEmbeddings) pointed at the gateway over a real socket: invoke,
// stream, tool calls and embeddings must accept every answer.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai'
import { startClientWorld, type ClientWorld } from './client-world.ts'

let world: ClientWorld
const chat = (fields: { streamUsage?: boolean } = {}) =>
  new ChatOpenAI({
    model: 'test/chat',
    apiKey: world.key,
    configuration: { baseURL: world.baseUrl },
    maxRetries: 0,
    ...fields,
  })

before(async () => {
  world = await startClientWorld()
})
after(() => world.close())

test('ChatOpenAI.invoke reads the text and the usage', async () => {
  world.upstream.script({ type: 'completion', text: 'Hello, LangChain', usage: { input_tokens: 9, output_tokens: 3 } })
  const message = await chat().invoke('Say hello')
  assert.equal(message.content, 'Hello, LangChain')
  assert.equal(message.usage_metadata?.input_tokens, 9)
  assert.equal(message.usage_metadata?.output_tokens, 3)
})

test('ChatOpenAI.stream reads every chunk', async () => {
  world.upstream.script({
    type: 'completion',
    text: 'chunk by chunk',
    chunks: 3,
    usage: { input_tokens: 5, output_tokens: 3 },
  })
  let text = ''
  for await (const chunk of await chat().stream('Stream'))
    text += typeof chunk.content === 'string' ? chunk.content : ''
  assert.equal(text, 'chunk by chunk')
})

test('ChatOpenAI with bound tools reads the tool call', async () => {
  world.upstream.script({
    type: 'completion',
    toolCalls: [{ id: 'call_9', name: 'get_weather', arguments: '{"city":"Rome"}' }],
  })
  const model = chat().bindTools([
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'The weather of a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    },
  ])
  const message = await model.invoke('Weather in Rome?')
  assert.deepEqual(
    message.tool_calls?.map((call) => [call.id, call.name, call.args]),
    [['call_9', 'get_weather', { city: 'Rome' }]],
  )
})

test('OpenAIEmbeddings reads the vectors', async () => {
  world.upstream.script({ type: 'embeddings', vectors: [[0.5, 0.25]] })
  const embeddings = new OpenAIEmbeddings({
    model: 'test/embed',
    apiKey: world.key,
    configuration: { baseURL: world.baseUrl },
    maxRetries: 0,
  })
  assert.deepEqual(await embeddings.embedQuery('one sentence'), [0.5, 0.25])
})
