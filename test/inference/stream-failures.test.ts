// Streams that end badly: the client goes away (the upstream call stops, produced tokens are billed) or
// the upstream breaks off (an error event in the client's format, the record keeps the partial output).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { request } from 'undici'
import type { FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { bearer, type TestGateway } from '../support/test-gateway.ts'
import { startChatGateway, type ChatGateway } from '../support/chat-gateway.ts'
import { waitFor } from '../support/wait-for.ts'

let gateway: TestGateway
let upstream: FakeUpstream
let base: string
let key: string
let setup: ChatGateway

before(async () => {
  setup = await startChatGateway('streams')
  ;({ gateway, upstream, base, key } = setup)
})
after(() => setup.close())


test('a client that disconnects mid-stream stops the upstream stream and is billed for what was produced', async () => {
  upstream.script({ type: 'completion', text: 'word '.repeat(200), chunks: 200, chunkDelayMs: 20, usage: { input_tokens: 5, output_tokens: 400 } })
  const controller = new AbortController()
  const response = await request(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/model', stream: true, messages: [{ role: 'user', content: 'talk a lot' }] }),
    signal: controller.signal,
  })
  assert.equal(response.statusCode, 200)
  const generationId = String(response.headers['x-generation-id'])
  let received = ''
  for await (const chunk of response.body) {
    received += chunk.toString()
    if ((received.match(/"content":"word /g) ?? []).length >= 5) break
  }
  const abortedAt = Date.now()
  controller.abort()
  const recorded = await upstream.settled(upstream.requests.length - 1)
  assert.ok(recorded.abortedAt !== undefined, 'the upstream saw the client go away')
  assert.ok(recorded.abortedAt - abortedAt < 1000, `upstream stopped ${recorded.abortedAt - abortedAt} ms after the client left`)
  const stored = await waitFor(async () => {
    const found = await gateway.gateway.generations.find(generationId)
    return found?.record.cancelled === true ? found : undefined
  }, 'the cancelled generation record')
  assert.equal(stored.record.status, 'cancelled')
  assert.ok(stored.record.tokensCompletion > 0 && stored.record.tokensCompletion < 400, `billed ${stored.record.tokensCompletion} output tokens`)
  assert.ok(stored.record.costNano > 0n)
})

test('an upstream that breaks off mid-stream ends the client stream with an error event; the record keeps the partial output', async () => {
  upstream.script({ type: 'completion', text: 'partial answer then nothing', chunks: 6, disconnectAfterFrames: 3 })
  const response = await fetch(`${base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/model', stream: true, messages: [{ role: 'user', content: 'x' }] }),
  })
  const text = await response.text()
  assert.equal(response.status, 200)
  assert.match(text, /"error":\{/)
  assert.match(text, /data: \[DONE\]\s*$/)
  const generationId = String(response.headers.get('x-generation-id'))
  const stored = await gateway.gateway.generations.find(generationId)
  assert.equal(stored?.record.status, 'failed')
  assert.ok((stored?.content?.completion ?? '').length > 0, 'partial output kept')
  assert.match(stored?.record.errorMessage ?? '', /./)
})
