// The server-tool loop end to end: a fake upstream scripted to call the exposed `openrouter_*` functions,
// a loopback page for web_fetch, the official openai and @openrouter/sdk clients over a real socket; the
// limits that halt the loop, client function tools and failing tools.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { OpenRouter } from '@openrouter/sdk'
import { chatBodyOf } from '../fake-upstreams/chat-request-body.ts'
import { bearer } from '../support/test-gateway.ts'
import { nano, startServerToolsWorld, tools, usage, type ServerToolsWorld } from './server-tools-world.ts'
import { waitFor } from '../support/wait-for.ts'

let world: ServerToolsWorld
before(async () => {
  world = await startServerToolsWorld()
})
after(() => world.close())

test('datetime, then web_fetch on a loopback page, then the answer; cost is the sum of the steps', async () => {
  const { upstream, gateway, keyHash, openai, scriptAgent } = world
  const first = upstream.requests.length
  scriptAgent()
  const response = await openai().responses.create({
    model: 'test/agent',
    input: 'When is high tide today?',
    tools: tools as never,
  })
  const output = response.output as unknown as Record<string, unknown>[]
  assert.deepEqual(
    output.map((item) => item.type),
    ['openrouter:datetime', 'openrouter:web_fetch', 'message'],
  )
  assert.equal(output[0]?.datetime, '2026-03-01T13:00:00+01:00')
  assert.equal(output[0]?.timezone, 'Europe/Paris')
  assert.equal(output[0]?.status, 'completed')
  assert.equal(output[1]?.httpStatus, 200)
  assert.equal(output[1]?.title, 'Tides')
  assert.match(String(output[1]?.content), /Harbour\s+High tide at 06:12\./)
  assert.doesNotMatch(String(output[1]?.content), /var x/)
  assert.equal(response.output_text, 'High tide is at 06:12.')
  const total = nano(10, 5) + nano(30, 6) + nano(50, 7)
  const reported = response.usage as unknown as {
    cost: number
    input_tokens: number
    server_tool_use_details: Record<string, number>
  }
  assert.equal(Math.round(reported.cost * 1e9), total)
  assert.equal(reported.input_tokens, 90)
  assert.deepEqual(reported.server_tool_use_details, {
    tool_calls_requested: 2,
    tool_calls_executed: 2,
    web_search_requests: 0,
  })

  const sent = upstream.requests.slice(first).map(chatBodyOf)
  assert.equal(sent.length, 3)
  assert.deepEqual(
    sent[0]!.tools!.map((tool: { function: { name: string } }) => tool.function.name),
    ['openrouter_datetime', 'openrouter_web_fetch'],
  )
  const toolMessages = sent[2]!.messages.filter((message: { role: string }) => message.role === 'tool')
  assert.equal(toolMessages.length, 2)
  assert.match(String(toolMessages[0]?.content), /2026-03-01T13:00:00\+01:00/)
  assert.match(String(toolMessages[1]?.content), /High tide at 06:12/)

  const record = await waitFor(() => gateway.findGeneration(response.id), 'the generation record')
  assert.equal(record?.record.costNano, BigInt(total))
  assert.equal(record?.record.tokensPrompt, 90)
  const keyView = (
    await gateway.inject({ method: 'GET', url: `/api/v1/keys/${keyHash}`, headers: bearer(gateway.adminKey) })
  ).json() as { data: { usage: number } }
  assert.equal(Math.round(keyView.data.usage * 1e9), total)
})

for (const [name, limits] of [
  ['max_tool_calls: 1', { max_tool_calls: 1 }],
  [
    'step_count_is (overriding max_tool_calls)',
    { max_tool_calls: 30, stop_server_tools_when: [{ type: 'step_count_is', step_count: 1 }] },
  ],
  ['max_cost', { stop_server_tools_when: [{ type: 'max_cost', max_cost_in_dollars: nano(10, 5) / 1e9 }] }],
] as const) {
  for (const stream of [false, true]) {
    test(`${name} halts the loop with a final tool-less turn (${stream ? 'stream' : 'json'})`, async () => {
      const { upstream, post, streamedOutputTypes } = world
      const first = upstream.requests.length
      upstream.script(
        {
          type: 'completion',
          toolCalls: [{ id: 'call_1', name: 'openrouter_datetime', arguments: '{}' }],
          usage: usage(10, 5),
        },
        { type: 'completion', text: 'It is noon.', usage: usage(20, 4) },
      )
      const body = { model: 'test/agent', input: 'What time is it?', tools, ...limits }
      const types = stream
        ? await streamedOutputTypes(body)
        : ((await (await post(body)).json()) as { output: { type: string }[] }).output.map((item) => item.type)
      assert.deepEqual(types, ['openrouter:datetime', 'message'])
      const sent = upstream.requests.slice(first).map(chatBodyOf)
      assert.equal(sent.length, 2)
      assert.equal(sent[0]!.tools!.length, 2)
      assert.equal(sent[1]!.tools, undefined, 'the final turn offers no tools')
      assert.match(
        String(sent[1]!.messages.at(-1)?.content),
        /\[result of openrouter_datetime\]\n\{"datetime":"2026-03-01T12:00:00\+00:00"/,
        'the pending call was executed first',
      )
    })
  }
}

test('streaming: tool items are announced and finished, the answer streams, the openai SDK accepts it', async () => {
  const { openai, scriptAgent } = world
  scriptAgent()
  const stream = await openai().responses.create({
    model: 'test/agent',
    input: 'When is high tide today?',
    tools: tools as never,
    stream: true,
  })
  const added: string[] = []
  const done: Record<string, unknown>[] = []
  let text = ''
  let completed: { output: { type: string }[]; usage?: unknown } | undefined
  for await (const event of stream) {
    if (event.type === 'response.output_item.added') added.push(event.item.type)
    if (event.type === 'response.output_item.done') done.push(event.item as unknown as Record<string, unknown>)
    if (event.type === 'response.output_text.delta') text += event.delta
    if (event.type === 'response.completed') completed = event.response as never
  }
  assert.deepEqual(added, ['openrouter:datetime', 'openrouter:web_fetch', 'message'])
  assert.equal(done[0]?.datetime, '2026-03-01T13:00:00+01:00')
  assert.equal(done[1]?.status, 'completed')
  assert.equal(text, 'High tide is at 06:12.')
  assert.deepEqual(
    completed?.output.map((item) => item.type),
    ['openrouter:datetime', 'openrouter:web_fetch', 'message'],
  )
  const reported = completed?.usage as { cost: number; server_tool_use_details: { tool_calls_executed: number } }
  assert.equal(Math.round(reported.cost * 1e9), nano(10, 5) + nano(30, 6) + nano(50, 7))
  assert.equal(reported.server_tool_use_details.tool_calls_executed, 2)
})

test('the OpenRouter SDK reads server-tool items and server_tool_use_details (json and stream)', async () => {
  const { key, base, scriptAgent } = world
  const client = new OpenRouter({ apiKey: key, serverURL: `${base}/api/v1` })
  scriptAgent()
  const response = (await client.responses.send({
    responsesRequest: { model: 'test/agent', input: 'When is high tide?', tools: tools as never },
  })) as unknown as {
    output: { type: string; datetime?: string; httpStatus?: number }[]
    usage?: { serverToolUseDetails?: { toolCallsExecuted?: number } }
  }
  const output = response.output
  assert.deepEqual(
    output.map((item) => item.type),
    ['openrouter:datetime', 'openrouter:web_fetch', 'message'],
  )
  assert.equal(output[0]?.datetime, '2026-03-01T13:00:00+01:00')
  assert.equal(output[1]?.httpStatus, 200)
  assert.equal(response.usage?.serverToolUseDetails?.toolCallsExecuted, 2)

  scriptAgent()
  const stream = await client.responses.send({
    responsesRequest: { model: 'test/agent', input: 'When is high tide?', tools: tools as never, stream: true },
  })
  const types: string[] = []
  for await (const event of stream as AsyncIterable<{ type: string; item?: { type: string } }>) {
    if (event.type === 'response.output_item.done') types.push(event.item!.type)
  }
  assert.deepEqual(types, ['openrouter:datetime', 'openrouter:web_fetch', 'message'])
})

test('a client function tool call ends the loop and is returned to the client', async () => {
  const { upstream, post } = world
  const first = upstream.requests.length
  upstream.script({
    type: 'completion',
    toolCalls: [{ id: 'call_w', name: 'get_weather', arguments: '{"city":"Brest"}' }],
    usage: usage(10, 5),
  })
  const clientTool = {
    type: 'function',
    name: 'get_weather',
    parameters: { type: 'object', properties: { city: { type: 'string' } } },
  }
  const response = await post({ model: 'test/agent', input: 'Weather?', tools: [...tools, clientTool] })
  const body = (await response.json()) as { output: { type: string; name?: string; call_id?: string }[] }
  assert.deepEqual(
    body.output.map((item) => [item.type, item.name]),
    [['function_call', 'get_weather']],
  )
  assert.equal(upstream.requests.length - first, 1)
})

test('a failing tool is a result the model reads; sandbox tools are refused without a runner', async () => {
  const { upstream, post } = world
  upstream.script(
    {
      type: 'completion',
      toolCalls: [{ id: 'call_s', name: 'openrouter_web_search', arguments: '{"query":"tides"}' }],
      usage: usage(10, 5),
    },
    { type: 'completion', text: 'I could not search.', usage: usage(20, 4) },
  )
  const searched = (await (
    await post({ model: 'test/agent', input: 'Search tides', tools: [{ type: 'openrouter:web_search' }] })
  ).json()) as { output: Record<string, unknown>[] }
  assert.equal(searched.output[0]?.type, 'openrouter:web_search')
  assert.equal(searched.output[0]?.status, 'incomplete')
  assert.match(String(searched.output[0]?.error), /server_tools\.web_search/)
  assert.match(String(chatBodyOf(upstream.requests.at(-1)!).messages.at(-1)?.content), /not configured/)

  const bash = await post({ model: 'test/agent', input: 'ls', tools: [{ type: 'openrouter:bash' }] })
  assert.equal(bash.status, 400)
  assert.match(
    ((await bash.json()) as { error: { message: string } }).error.message,
    /openrouter:bash.*server_tools\.sandbox\.url/,
  )
})
