// The Anthropic SDK (@anthropic-ai/sdk) over a real socket, every call it makes that the gateway serves:
// messages plain and streamed, tools, the beta toolRunner loop, count_tokens and cache_control, across each
// upstream API; a `thread` (server-side state the gateway does not keep) is refused with a 400 that says so.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import Anthropic from '@anthropic-ai/sdk'
import { chatModel, startClientWorld, upstreamApis, type ClientWorld } from './client-world.ts'

let world: ClientWorld
let client: Anthropic

before(async () => {
  world = await startClientWorld()
  client = new Anthropic({ apiKey: world.key, baseURL: world.baseUrl.replace(/\/v1$/, ''), maxRetries: 0 })
})
after(() => world.close())

const usage = { input_tokens: 13, output_tokens: 6 }
const weatherTool = {
  name: 'get_weather',
  description: 'The weather of a city',
  input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
}
const ask = (content: string) => [{ role: 'user' as const, content }]

for (const api of upstreamApis) {
  const model = chatModel(api)

  test(`[${api}] messages.create: text, stop reason, usage`, async () => {
    world.upstreams[api].script({ type: 'completion', text: 'Bonjour', usage })
    const message = await client.messages.create({ model, max_tokens: 50, messages: ask('Hi') })
    assert.equal(message.type, 'message')
    assert.equal(message.role, 'assistant')
    assert.deepEqual(message.content, [{ type: 'text', text: 'Bonjour' }])
    assert.equal(message.stop_reason, 'end_turn')
    assert.deepEqual([message.usage.input_tokens, message.usage.output_tokens], [13, 6])
  })

  test(`[${api}] messages.stream and create({stream: true}): every event parses, finalMessage is whole`, async () => {
    world.upstreams[api].script({ type: 'completion', text: 'Streaming through', chunks: 4, usage })
    const final = await client.messages.stream({ model, max_tokens: 50, messages: ask('Hi') }).finalMessage()
    assert.deepEqual(final.content, [{ type: 'text', text: 'Streaming through' }])
    assert.equal(final.stop_reason, 'end_turn')
    assert.equal(final.usage.output_tokens, 6)
    world.upstreams[api].script({ type: 'completion', text: 'Raw events', chunks: 2, usage })
    const stream = await client.messages.create({ model, max_tokens: 50, messages: ask('Hi'), stream: true })
    const types: string[] = []
    for await (const event of stream) types.push(event.type)
    assert.deepEqual([types[0], types.at(-1)], ['message_start', 'message_stop'])
  })

  test(`[${api}] tools: the SDK reads tool_use plain and streamed`, async () => {
    const toolCalls = [{ id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]
    world.upstreams[api].script({ type: 'completion', toolCalls, usage }, { type: 'completion', toolCalls, usage })
    const params = { model, max_tokens: 100, tools: [weatherTool], messages: ask('Weather in Paris?') }
    for (const message of [await client.messages.create(params), await client.messages.stream(params).finalMessage()]) {
      assert.equal(message.stop_reason, 'tool_use')
      const use = message.content.find((block) => block.type === 'tool_use')
      assert.ok(use?.type === 'tool_use', JSON.stringify(message.content))
      assert.deepEqual([use.name, use.input], ['get_weather', { city: 'Paris' }])
    }
    assert.match(world.upstreams[api].requests.at(-1)?.rawBody ?? '', /get_weather/)
  })

  test(`[${api}] beta.messages.toolRunner runs the tool and sends the whole conversation back`, async () => {
    world.upstreams[api].script(
      { type: 'completion', toolCalls: [{ id: 'toolu_7', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
      { type: 'completion', text: 'It rains in Oslo.', usage },
    )
    const before = world.upstreams[api].requests.length
    const final = await client.beta.messages.toolRunner({
      model,
      max_tokens: 100,
      messages: ask('Weather in Oslo?'),
      tools: [{ ...weatherTool, run: (input: unknown) => `rain in ${(input as { city: string }).city}` }],
    })
    assert.deepEqual(final.content, [{ type: 'text', text: 'It rains in Oslo.' }])
    const second = world.upstreams[api].requests[before + 1]
    assert.ok(second, 'the runner called again with the tool result')
    assert.match(second.rawBody, /Weather in Oslo\?/, 'the first question is still in the conversation')
    assert.match(second.rawBody, /rain in Oslo/)
  })

  test(`[${api}] messages.countTokens counts without calling the upstream`, async () => {
    const before = world.upstreams[api].requests.length
    const counted = await client.messages.countTokens({ model, tools: [weatherTool], messages: ask('Hello, world!') })
    assert.ok(counted.input_tokens > 4, String(counted.input_tokens))
    assert.equal(world.upstreams[api].requests.length, before)
  })
}

test('beta.messages.toolRunner with a thread and a lone tool result is a 400 saying no server-side state is kept', async () => {
  const before = world.upstreams.anthropic.requests.length
  // The runner passes its params through to messages.create, `thread` included.
  const runner = client.beta.messages.toolRunner({
    model: chatModel('anthropic'),
    max_tokens: 50,
    messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '42' }] }],
    tools: [{ ...weatherTool, run: () => 'unused' }],
    // @ts-expect-error -- a field of Anthropic's server-side threads, not in this SDK's create params
    thread: { id: 'thread_1' },
  })
  await assert.rejects(
    async () => await runner,
    (error: unknown) => {
      assert.ok(error instanceof Anthropic.BadRequestError, String(error))
      assert.match(error.message, /thread is not supported: .*no server-side state/)
      return true
    },
  )
  assert.equal(world.upstreams.anthropic.requests.length, before, 'nothing is forwarded')
})

test('cache_control on system, message and tool blocks reaches the Anthropic upstream', async () => {
  world.upstreams.anthropic.script({ type: 'completion', text: 'ok', usage: { ...usage, cached_input_tokens: 9 } })
  const ephemeral = { type: 'ephemeral' as const }
  const message = await client.messages.create({
    model: chatModel('anthropic'),
    max_tokens: 50,
    system: [{ type: 'text', text: 'A long shared prefix', cache_control: ephemeral }],
    tools: [{ ...weatherTool, cache_control: ephemeral }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: ephemeral }] }],
  })
  assert.equal(message.usage.cache_read_input_tokens, 9)
  const sent = world.upstreams.anthropic.requests.at(-1)?.body as {
    system: { cache_control?: unknown }[]
    tools: { cache_control?: unknown }[]
    messages: { content: { cache_control?: unknown }[] }[]
  }
  assert.deepEqual(sent.system[0]?.cache_control, ephemeral)
  assert.deepEqual(sent.tools[0]?.cache_control, ephemeral)
  assert.deepEqual(sent.messages[0]?.content[0]?.cache_control, ephemeral)
})
