// A Responses stream from a Responses upstream passes through (DESIGN.md section 3): the official SDK reads
// it, the upstream's frames reach the client as the upstream wrote them (its item ids, its numbering),
// the gateway's own frames carry its id, usage and cost, and the record bills what the upstream reported.
// A stream kept for the response cache is translated instead, and its hit replays under the SDK as well.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { bearer } from '../support/test-gateway.ts'
import { chatModel, startClientWorld, type ClientWorld } from './client-world.ts'

let world: ClientWorld
let client: OpenAI
const model = chatModel('openai-responses')
const usage = { input_tokens: 11, output_tokens: 5 }
/** 11 x $1/M + 5 x $2/M */
const cost = 0.000021

before(async () => {
  world = await startClientWorld()
  client = new OpenAI({ apiKey: world.key, baseURL: world.baseUrl, maxRetries: 0 })
})
after(() => world.close())

const upstream = () => world.upstreams['openai-responses']

async function rawStream(
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ id: string; frames: Record<string, unknown>[]; text: string }> {
  const response = await fetch(`${world.baseUrl}/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${world.key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model, input: 'Hi', stream: true, ...body }),
  })
  assert.equal(response.status, 200)
  const text = await response.text()
  const frames = text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice('data: '.length)) as Record<string, unknown>)
  return { id: response.headers.get('x-generation-id')!, frames, text }
}

async function generation(id: string): Promise<Record<string, unknown>> {
  await world.gateway.drained()
  const answer = await world.gateway.inject({
    method: 'GET',
    url: `/api/v1/generation?id=${id}`,
    headers: bearer(world.key),
  })
  assert.equal(answer.statusCode, 200, answer.body)
  return (answer.json() as { data: Record<string, unknown> }).data
}

test('reasoning, text and a tool call pass through: the SDK’s final response has the upstream’s items', async () => {
  upstream().script({
    type: 'completion',
    id: 'resp_up1',
    reasoning: 'Think first.',
    text: 'Calling the tool.',
    toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
    usage,
  })
  const stream = client.responses.stream({ model, input: 'Weather in Oslo?' })
  const final = await stream.finalResponse()
  assert.match(final.id, /^gen-/)
  assert.equal(final.model, model)
  assert.equal(final.output_text, 'Calling the tool.')
  assert.deepEqual(
    final.output.map((item) => [item.type, item.id]),
    [
      ['reasoning', 'rs_resp_up1'],
      ['message', 'msg_resp_up1'],
      ['function_call', 'fc_resp_up1_0'],
    ],
  )
  const call = final.output[2]
  assert.ok(call?.type === 'function_call')
  assert.deepEqual([call.name, call.arguments], ['get_weather', '{"city":"Oslo"}'])
  assert.deepEqual([final.usage?.input_tokens, final.usage?.output_tokens], [11, 5])
  assert.equal((final.usage as unknown as { cost: number }).cost, cost)
})

test('the frames between the gateway’s opening and terminal events are the upstream’s, numbered without a gap', async () => {
  upstream().script({ type: 'completion', id: 'resp_up2', text: 'Passed straight through.', chunks: 5, usage })
  const { id, frames } = await rawStream({})
  assert.deepEqual(
    frames.map((frame) => frame.sequence_number),
    frames.map((_, index) => index),
  )
  const [created, inProgress, ...rest] = frames
  const completed = rest.pop()!
  assert.deepEqual(
    [created?.type, inProgress?.type, completed.type],
    ['response.created', 'response.in_progress', 'response.completed'],
  )
  for (const frame of [created, inProgress, completed]) assert.equal((frame?.response as { id: string }).id, id)
  assert.equal(rest.length, 2 + 5 + 2, 'item and part added, five deltas, part and item done')
  for (const frame of rest) {
    const itemId = frame.item_id ?? (frame.item as { id: string }).id
    assert.equal(itemId, 'msg_resp_up2', JSON.stringify(frame))
  }
  const deltas = rest.filter((frame) => frame.type === 'response.output_text.delta').map((frame) => frame.delta)
  assert.equal(deltas.join(''), 'Passed straight through.')
  const response = completed.response as { usage: { cost: number }; output: { id: string }[] }
  assert.equal(response.usage.cost, cost)
  assert.deepEqual(
    response.output.map((item) => item.id),
    ['msg_resp_up2'],
  )
  const record = await generation(id)
  assert.deepEqual(
    [record.tokens_prompt, record.tokens_completion, record.total_cost, record.streamed],
    [11, 5, cost, true],
  )
})

test('after the debug frame the passed frames are renumbered and still parse under the SDK', async () => {
  upstream().script({ type: 'completion', id: 'resp_up3', text: 'Echoed and renumbered.', usage })
  const { frames } = await rawStream({ debug: { echo_upstream_body: true } })
  assert.equal(frames[0]?.type, 'response.debug')
  assert.deepEqual(
    frames.map((frame) => frame.sequence_number),
    frames.map((_, index) => index),
  )
  upstream().script({ type: 'completion', id: 'resp_up4', text: 'Echoed and renumbered.', usage })
  // OpenRouter's debug field is not in the openai types: a variable passes the excess-property check.
  const params = { model, input: 'Hi', stream: true as const, debug: { echo_upstream_body: true } }
  const stream = await client.responses.create(params)
  let text = ''
  for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta
  assert.equal(text, 'Echoed and renumbered.')
})

test('a stream kept for the response cache is translated, and its hit replays it to the SDK', async () => {
  const cacheOn = { 'x-openrouter-cache': 'true' }
  upstream().script({ type: 'completion', id: 'resp_up5', text: 'Cached once.', usage })
  const miss = await rawStream({ input: 'cache me' }, cacheOn)
  const itemIds = new Set(miss.frames.flatMap((frame) => (typeof frame.item_id === 'string' ? [frame.item_id] : [])))
  assert.deepEqual([...itemIds], [`msg_${miss.id}_0`], "translated: the gateway's item ids")
  const calls = upstream().requests.length
  const cachedClient = new OpenAI({ apiKey: world.key, baseURL: world.baseUrl, maxRetries: 0, defaultHeaders: cacheOn })
  const final = await cachedClient.responses.stream({ model, input: 'cache me' }).finalResponse()
  assert.equal(upstream().requests.length, calls, 'answered from the cache')
  assert.equal(final.output_text, 'Cached once.')
})
