// Server tools that call back into the pipeline (subagent, fusion), the loop through an Anthropic upstream,
// and the workspace's server-tool policy, end to end over a real socket.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { chatBodyOf } from '../fake-upstreams/chat-request-body.ts'
import { bearer } from '../support/test-gateway.ts'
import { nano, startServerToolsWorld, tools, usage, type ServerToolsWorld } from './server-tools-world.ts'

let world: ServerToolsWorld
before(async () => {
  world = await startServerToolsWorld()
})
after(() => world.close())

test('subagent: a nested call through the pipeline, billed to the same key as its own generation', async () => {
  const { upstream, gateway, keyHash, post } = world
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
  await gateway.drained()
  const rows = await gateway.store.db
    .selectFrom('generations')
    .select(['id', 'dialect', 'cost_nano'])
    .where('key_hash', '=', keyHash)
    .where('dialect', '=', 'openai-chat')
    .execute()
  assert.equal(rows.length, 1)
  assert.equal(BigInt(rows[0]!.cost_nano), BigInt(nano(4, 1)))
})

test('fusion: a panel of models answers, the judge combines, every call is billed to the key', async () => {
  const { upstream, post } = world
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
  const sent = upstream.requests.slice(first).map(chatBodyOf)
  assert.deepEqual(
    sent
      .slice(1, 3)
      .map((request) => request.model)
      .sort(),
    ['up-agent', 'up-panelist'],
  )
  assert.match(String(sent[3]!.messages.at(-1)?.content), /Answer 1 \(test\/agent\)[\s\S]*Answer 2 \(test\/panelist\)/)
  assert.match(String(sent[4]!.messages.at(-1)?.content), /Combined: Brest/)
})

test('through an Anthropic upstream: tool_use round trip, then a final turn without tools or tool blocks', async () => {
  const { claude, post } = world
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
  const sent = claude.requests.slice(first).map(chatBodyOf)
  assert.equal(sent.length, 3)
  const blocks = (request: (typeof sent)[number]) =>
    request.messages
      .flatMap((message: { content: unknown }) => (Array.isArray(message.content) ? message.content : []))
      .map((block: { type: string }) => block.type)
  assert.ok(
    blocks(sent[1]!).includes('tool_use') && blocks(sent[1]!).includes('tool_result'),
    'the second step carries the tool round trip natively',
  )
  assert.equal(sent[2]!.tools, undefined)
  assert.ok(
    !blocks(sent[2]!).includes('tool_use') && !blocks(sent[2]!).includes('tool_result'),
    'the final turn has no tool blocks',
  )
})

test('a server tool disabled for the workspace is refused with 403 naming it; an unknown one with 400', async () => {
  const { gateway, keyHash, post } = world
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
  await gateway.drained()
  try {
    const refused = await post({ model: 'test/agent', input: 'x', tools })
    assert.equal(refused.status, 403)
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /openrouter:web_fetch/)
  } finally {
    await patch([])
    await gateway.drained()
  }
  const unknown = await post({ model: 'test/agent', input: 'x', tools: [{ type: 'openrouter:teleport' }] })
  assert.equal(unknown.status, 400)
})
