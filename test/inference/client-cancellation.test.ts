// A client that leaves before a non-streaming answer is ready: the gateway stops the upstream call
// (through the request's Cancellation, which undici takes as its signal) and bills nothing.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { request } from 'undici'
import { bearer } from '../support/test-gateway.ts'
import { startChatGateway, type ChatGateway } from '../support/chat-gateway.ts'

let setup: ChatGateway

before(async () => {
  setup = await startChatGateway('leaves-early')
})
after(() => setup.close())

test('a client that leaves while the upstream is still answering stops the upstream call and is not billed', async () => {
  setup.upstream.script({
    type: 'completion',
    text: 'a slow answer',
    chunkDelayMs: 5_000,
    usage: { input_tokens: 5, output_tokens: 10 },
  })
  const controller = new AbortController()
  const answer = request(`${setup.base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(setup.key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/model', messages: [{ role: 'user', content: 'take your time' }] }),
    signal: controller.signal,
  })
  while (setup.upstream.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
  const abortedAt = Date.now()
  controller.abort()
  await assert.rejects(answer)
  const recorded = await setup.upstream.settled(0)
  assert.ok(recorded.abortedAt !== undefined, 'the upstream saw the gateway give up the call')
  assert.ok(
    recorded.abortedAt - abortedAt < 1000,
    `upstream stopped ${recorded.abortedAt - abortedAt} ms after the client left`,
  )
  const key = await setup.gateway.inject({ method: 'GET', url: '/api/v1/key', headers: bearer(setup.key) })
  assert.equal((key.json() as { data: { usage: number } }).data.usage, 0)
})
