// Streams that end badly: the client goes away (the upstream call stops, produced tokens are billed) or
// the upstream breaks off (an error event in the client's format, the record keeps the partial output).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { request } from 'undici'
import { bearer } from '../support/test-gateway.ts'
import { assertCancelledAndBilled, startChatGateway, type ChatGateway } from '../support/chat-gateway.ts'
import { waitFor } from '../support/wait-for.ts'
import { loadTokenizer } from '../../src/inference/tokens/load-tokenizer.ts'

let setup: ChatGateway

before(async () => {
  setup = await startChatGateway('streams')
})
after(() => setup.close())

test('a client that disconnects mid-stream stops the upstream stream and is billed for what was produced', async () => {
  setup.upstream.script({
    type: 'completion',
    text: 'word '.repeat(200),
    chunks: 200,
    chunkDelayMs: 20,
    usage: { input_tokens: 5, output_tokens: 400 },
  })
  const controller = new AbortController()
  const response = await request(`${setup.base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(setup.key), 'content-type': 'application/json' },
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
  await assertCancelledAndBilled(setup, generationId, abortedAt, 400)
})

test('an upstream that breaks off mid-stream ends the client stream with an error event; the record keeps the partial output', async () => {
  setup.upstream.script({
    type: 'completion',
    text: 'partial answer then nothing',
    chunks: 6,
    disconnectAfterFrames: 3,
  })
  const response = await fetch(`${setup.base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(setup.key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/model', stream: true, messages: [{ role: 'user', content: 'x' }] }),
  })
  const text = await response.text()
  assert.equal(response.status, 200)
  assert.match(text, /"error":\{/)
  assert.match(text, /data: \[DONE\]\s*$/)
  const generationId = String(response.headers.get('x-generation-id'))
  const stored = await waitFor(() => setup.gateway.findGeneration(generationId), 'the generation record')
  assert.equal(stored?.record.status, 'failed')
  assert.ok((stored?.content?.completion ?? '').length > 0, 'partial output kept')
  assert.match(stored?.record.errorMessage ?? '', /./)
})

test('a stream that ends without usage is billed the input and output counted with the tokenizer', async () => {
  setup.upstream.script({ type: 'completion', text: 'The quick brown fox jumps', chunks: 6, disconnectAfterFrames: 4 })
  const response = await fetch(`${setup.base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(setup.key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/model', stream: true, messages: [{ role: 'user', content: 'Hello, world!' }] }),
  })
  await response.text()
  const generationId = String(response.headers.get('x-generation-id'))
  const stored = await waitFor(() => setup.gateway.findGeneration(generationId), 'the generation record')
  // OpenAI's framing of one message (3), its role (1), "Hello, world!" (4) and the reply priming (3).
  assert.equal(stored?.record.tokensPrompt, 11)
  const partial = stored?.content?.completion ?? ''
  assert.ok(partial.length > 0 && partial.length < 'The quick brown fox jumps'.length, partial)
  const tokenizer = await loadTokenizer('m1')
  assert.equal(stored?.record.tokensCompletion, tokenizer.count(partial))
})
