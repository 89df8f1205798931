// The server-tool loop end to end: a fake upstream scripted to call the exposed `openrouter_*` functions,
// a loopback page for web_fetch, the official openai and @openrouter/sdk clients over a real socket.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import OpenAI from 'openai'
import { OpenRouter } from '@openrouter/sdk'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

const instant = '2026-03-01T12:00:00.000Z'
let upstream: FakeUpstream
let claude: FakeUpstream
let page: Server
let pageUrl: string
let gateway: TestGateway
let base: string
let key: string
let keyHash: string

before(async () => {
  upstream = await startFakeUpstream({ api: 'openai-chat', apiKey: 'upstream-secret' })
  claude = await startFakeUpstream({ api: 'anthropic', apiKey: 'upstream-secret' })
  page = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(
      '<html><head><title>Tides</title><script>var x = 1</script></head><body><h1>Harbour</h1><p>High tide at <b>06:12</b>.</p></body></html>',
    )
  })
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve))
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/tides`
  const yaml = `egress: { allow_private_networks: true }
providers:
  - { slug: fake, name: Fake, api: openai-chat, base_url: "${upstream.url}", api_key: upstream-secret }
  - { slug: claude, name: Claude, api: anthropic, base_url: "${claude.url}", api_key: upstream-secret }
models:
  - slug: test/agent
    endpoints:
      - { provider: fake, upstream_model_id: up-agent, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }
  - slug: test/claude
    endpoints:
      - { provider: claude, upstream_model_id: up-claude, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }
  - slug: test/panelist
    endpoints:
      - { provider: fake, upstream_model_id: up-panelist, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }
`
  gateway = await startTestGateway({ yaml, clock: { now: () => new Date(instant) } })
  base = await gateway.listen()
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'agent', limit: 5 },
  })
  assert.equal(created.statusCode, 201, created.body)
  key = (created.json() as { key: string }).key
  keyHash = (created.json() as { data: { hash: string } }).data.hash
})
after(async () => {
  await gateway.close()
  await upstream.close()
  await claude.close()
  await new Promise((resolve) => page.close(resolve))
})

const openai = () => new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, maxRetries: 0 })
const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output })
/** Nano-dollars of a step at the configured prices (1000 per prompt token, 2000 per completion token). */
const nano = (input: number, output: number) => input * 1000 + output * 2000
const tools = [{ type: 'openrouter:datetime' }, { type: 'openrouter:web_fetch' }]

function scriptAgent(): void {
  upstream.script(
    {
      type: 'completion',
      toolCalls: [{ id: 'call_dt', name: 'openrouter_datetime', arguments: '{"timezone":"Europe/Paris"}' }],
      usage: usage(10, 5),
    },
    {
      type: 'completion',
      toolCalls: [{ id: 'call_wf', name: 'openrouter_web_fetch', arguments: JSON.stringify({ url: pageUrl }) }],
      usage: usage(30, 6),
    },
    { type: 'completion', text: 'High tide is at 06:12.', usage: usage(50, 7) },
  )
}

async function post(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${base}/api/v1/responses`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

test('datetime, then web_fetch on a loopback page, then the answer; cost is the sum of the steps', async () => {
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

  const sent = upstream.requests.slice(first)
  assert.equal(sent.length, 3)
  assert.deepEqual(
    sent[0]!.body.tools.map((tool: { function: { name: string } }) => tool.function.name),
    ['openrouter_datetime', 'openrouter_web_fetch'],
  )
  const toolMessages = sent[2]!.body.messages.filter((message: { role: string }) => message.role === 'tool')
  assert.equal(toolMessages.length, 2)
  assert.match(toolMessages[0].content, /2026-03-01T13:00:00\+01:00/)
  assert.match(toolMessages[1].content, /High tide at 06:12/)

  await gateway.gateway.generations.flush()
  const record = await gateway.gateway.generations.find(response.id)
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
      const sent = upstream.requests.slice(first)
      assert.equal(sent.length, 2)
      assert.equal(sent[0]!.body.tools.length, 2)
      assert.equal(sent[1]!.body.tools, undefined, 'the final turn offers no tools')
      assert.match(
        sent[1]!.body.messages.at(-1).content,
        /\[result of openrouter_datetime\]\n\{"datetime":"2026-03-01T12:00:00\+00:00"/,
        'the pending call was executed first',
      )
    })
  }
}

async function streamedOutputTypes(body: Record<string, unknown>): Promise<string[]> {
  const stream = (await openai().responses.create({ ...body, stream: true } as never)) as unknown as AsyncIterable<{
    type: string
    response?: { output: { type: string }[] }
  }>
  let completed: string[] = []
  for await (const event of stream)
    if (event.type === 'response.completed') completed = event.response!.output.map((item) => item.type)
  return completed
}

test('streaming: tool items are announced and finished, the answer streams, the openai SDK accepts it', async () => {
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
  assert.match(String(upstream.requests.at(-1)!.body.messages.at(-1).content), /not configured/)

  const bash = await post({ model: 'test/agent', input: 'ls', tools: [{ type: 'openrouter:bash' }] })
  assert.equal(bash.status, 400)
  assert.match(
    ((await bash.json()) as { error: { message: string } }).error.message,
    /openrouter:bash.*server_tools\.sandbox\.url/,
  )
})

test('subagent: a nested call through the pipeline, billed to the same key as its own generation', async () => {
  upstream.script(
    {
      type: 'completion',
      toolCalls: [{ id: 'call_a', name: 'openrouter_subagent', arguments: '{"task":"Name a harbour"}' }],
      usage: usage(10, 5),
    },
    { type: 'completion', text: 'Brest', usage: usage(4, 1) },
    { type: 'completion', text: 'The sub-agent says Brest.', usage: usage(20, 4) },
  )
  const body = (await (
    await post({ model: 'test/agent', input: 'Delegate', tools: [{ type: 'openrouter:subagent' }] })
  ).json()) as { id: string; output: Record<string, unknown>[] }
  assert.deepEqual(
    body.output.map((item) => item.type),
    ['openrouter:subagent', 'message'],
  )
  assert.equal(body.output[0]?.outcome, 'Brest')
  assert.equal(body.output[0]?.model, 'test/agent')
  await gateway.gateway.generations.flush()
  const rows = await gateway.gateway.store.db
    .selectFrom('generations')
    .select(['id', 'dialect', 'cost_nano'])
    .where('key_hash', '=', keyHash)
    .where('dialect', '=', 'openai-chat')
    .execute()
  assert.equal(rows.length, 1)
  assert.equal(BigInt(rows[0]!.cost_nano), BigInt(nano(4, 1)))
})

test('fusion: a panel of models answers, the judge combines, every call is billed to the key', async () => {
  const first = upstream.requests.length
  upstream.script(
    {
      type: 'completion',
      toolCalls: [
        {
          id: 'call_f',
          name: 'openrouter_fusion',
          arguments: '{"prompt":"Best harbour?","models":["test/agent","test/panelist"]}',
        },
      ],
      usage: usage(10, 5),
    },
    { type: 'completion', text: 'Panel answer', usage: usage(3, 2) },
    { type: 'completion', text: 'Panel answer', usage: usage(3, 2) },
    { type: 'completion', text: 'Combined: Brest', usage: usage(8, 3) },
    { type: 'completion', text: 'Fusion says Brest.', usage: usage(20, 4) },
  )
  const body = (await (
    await post({ model: 'test/agent', input: 'Ask the panel', tools: [{ type: 'openrouter:fusion' }] })
  ).json()) as { output: Record<string, unknown>[] }
  assert.deepEqual(
    body.output.map((item) => item.type),
    ['openrouter:fusion', 'message'],
  )
  assert.deepEqual(
    (body.output[0]?.responses as { model: string }[]).map((response) => response.model),
    ['test/agent', 'test/panelist'],
  )
  const sent = upstream.requests.slice(first)
  assert.deepEqual(
    sent
      .slice(1, 3)
      .map((request) => request.body.model)
      .sort(),
    ['up-agent', 'up-panelist'],
  )
  assert.match(sent[3]!.body.messages.at(-1).content, /Answer 1 \(test\/agent\)[\s\S]*Answer 2 \(test\/panelist\)/)
  assert.match(sent[4]!.body.messages.at(-1).content, /Combined: Brest/)
})

test('through an Anthropic upstream: tool_use round trip, then a final turn without tools or tool blocks', async () => {
  const first = claude.requests.length
  claude.script(
    {
      type: 'completion',
      toolCalls: [{ id: 'toolu_1', name: 'openrouter_datetime', arguments: '{}' }],
      usage: usage(10, 5),
    },
    {
      type: 'completion',
      toolCalls: [{ id: 'toolu_2', name: 'openrouter_datetime', arguments: '{"timezone":"Asia/Tokyo"}' }],
      usage: usage(20, 5),
    },
    { type: 'completion', text: 'It is 21:00 in Tokyo.', usage: usage(30, 6) },
  )
  const body = (await (
    await post({ model: 'test/claude', input: 'Time?', tools: [{ type: 'openrouter:datetime' }], max_tool_calls: 2 })
  ).json()) as { output: Record<string, unknown>[]; output_text: string }
  assert.deepEqual(
    body.output.map((item) => item.type),
    ['openrouter:datetime', 'openrouter:datetime', 'message'],
  )
  assert.equal(body.output[1]?.datetime, '2026-03-01T21:00:00+09:00')
  assert.equal(body.output_text, 'It is 21:00 in Tokyo.')
  const sent = claude.requests.slice(first)
  assert.equal(sent.length, 3)
  const blocks = (request: (typeof sent)[number]) =>
    request.body.messages
      .flatMap((message: { content: unknown }) => (Array.isArray(message.content) ? message.content : []))
      .map((block: { type: string }) => block.type)
  assert.ok(
    blocks(sent[1]!).includes('tool_use') && blocks(sent[1]!).includes('tool_result'),
    'the second step carries the tool round trip natively',
  )
  assert.equal(sent[2]!.body.tools, undefined)
  assert.ok(
    !blocks(sent[2]!).includes('tool_use') && !blocks(sent[2]!).includes('tool_result'),
    'the final turn has no tool blocks',
  )
})

test('a server tool disabled for the workspace is refused with 403 naming it; an unknown one with 400', async () => {
  const keyView = (
    await gateway.inject({ method: 'GET', url: `/api/v1/keys/${keyHash}`, headers: bearer(gateway.adminKey) })
  ).json() as { data: { workspace_id: string } }
  const workspace = keyView.data.workspace_id
  const patch = (tools: string[]) =>
    gateway.inject({
      method: 'PATCH',
      url: `/api/v1/workspaces/${workspace}`,
      headers: bearer(gateway.adminKey),
      payload: { disabled_server_tools: tools },
    })
  assert.equal((await patch(['openrouter:web_fetch'])).statusCode, 200)
  await gateway.gateway.workspaceCache.settled()
  try {
    const refused = await post({ model: 'test/agent', input: 'x', tools })
    assert.equal(refused.status, 403)
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /openrouter:web_fetch/)
  } finally {
    await patch([])
    await gateway.gateway.workspaceCache.settled()
  }
  const unknown = await post({ model: 'test/agent', input: 'x', tools: [{ type: 'openrouter:teleport' }] })
  assert.equal(unknown.status, 400)
})
