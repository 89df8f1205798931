// How many writes a streamed answer costs on the client's socket. An upstream whose whole answer comes
// in one read (a fast provider, a short answer) is sent in two writes: the opening frames at once, then
// the rest with the closing frames (usage, cost, `[DONE]`) and the end of the response. Content that
// arrives before the message's end is still written as it arrives.
import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { once } from 'node:events'
import { request } from 'undici'
import { bearer, startTestGateway } from '../support/test-gateway.ts'

const frame = (chunk: unknown): string => `data: ${JSON.stringify(chunk)}\n\n`
const chunk = (delta: Record<string, unknown>, finish: string | null = null, usage?: unknown) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1747130000,
  model: 'm1',
  choices: usage === undefined ? [{ index: 0, delta, finish_reason: finish }] : [],
  ...(usage === undefined ? {} : { usage }),
})
const opening = frame(chunk({ role: 'assistant', content: '' }))
const content = frame(chunk({ content: 'Hello there' }))
const closing =
  frame(chunk({}, 'stop')) +
  frame(chunk({}, null, { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 })) +
  'data: [DONE]\n\n'

/** The upstream answers in one write, or holds its closing frames until `release` is called. */
let mode: 'one-write' | 'held' = 'one-write'
let release: () => void = () => {}
const upstream = createServer((req, res: ServerResponse) => {
  req.resume()
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  if (mode === 'one-write') return res.end(opening + content + closing)
  res.write(opening + content)
  release = () => res.end(closing)
})
upstream.listen(0, '127.0.0.1')
await once(upstream, 'listening')
const upstreamAddress = upstream.address()
const upstreamPort = typeof upstreamAddress === 'object' && upstreamAddress !== null ? upstreamAddress.port : 0

const gateway = await startTestGateway({
  yaml: `providers:\n  - { slug: chatco, api: openai-chat, base_url: "http://127.0.0.1:${upstreamPort}" }\nmodels:\n  - slug: test/model\n    endpoints:\n      - { provider: chatco, upstream_model_id: m1, pricing: { prompt: "0.000001", completion: "0.000002" } }\n`,
})
const base = await gateway.listen()
const key = (
  (
    await gateway.inject({
      method: 'POST',
      url: '/api/v1/keys',
      headers: bearer(gateway.adminKey),
      payload: { name: 'writes' },
    })
  ).json() as { key: string }
).key
after(async () => {
  await gateway.close()
  upstream.close()
})

/** Counts what the gateway's sockets hand to the kernel: one `_write` or `_writev` per write. */
const writesBySocket = new Map<Socket, number>()
gateway.gateway.app.fastify.server.on('connection', (socket: Socket) => {
  writesBySocket.set(socket, 0)
  const count = () => writesBySocket.set(socket, (writesBySocket.get(socket) ?? 0) + 1)
  const stream = socket as unknown as { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void }
  const write = stream._write.bind(socket)
  const writev = stream._writev.bind(socket)
  stream._write = (...args) => (count(), write(...args))
  stream._writev = (...args) => (count(), writev(...args))
})

function streamChat() {
  return request(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({ model: 'test/model', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
  })
}

test('an answer that comes in one upstream read leaves in two writes: the opening frames, then the rest with the closing frames', async () => {
  mode = 'one-write'
  writesBySocket.clear()
  const response = await streamChat()
  const body = await response.body.text()
  assert.equal(response.statusCode, 200)
  assert.match(body, /"content":"Hello there"/)
  assert.match(body, /"finish_reason":"stop"/)
  assert.match(body, /"usage":\{/)
  assert.ok(body.endsWith('data: [DONE]\n\n'))
  assert.deepEqual([...writesBySocket.values()], [2])
})

test('content that arrives before the message ends is written at once, not held for the closing frames', async () => {
  mode = 'held'
  writesBySocket.clear()
  const response = await streamChat()
  const pieces = response.body[Symbol.asyncIterator]()
  let text = ''
  while (!text.includes('Hello there')) {
    const next = await pieces.next()
    assert.ok(next.done !== true, 'the stream ended before the content arrived')
    text += (next.value as Buffer).toString('utf8')
  }
  assert.ok(!text.includes('finish_reason":"stop'), 'the closing frames were not sent yet')
  release()
  for (let next = await pieces.next(); next.done !== true; next = await pieces.next())
    text += (next.value as Buffer).toString('utf8')
  assert.match(text, /"finish_reason":"stop"/)
  assert.ok(text.endsWith('data: [DONE]\n\n'))
})
