// How a streamed answer reaches the client: straight onto the socket, with the headers the request
// hooks set, counted by the metrics; a client that reads slowly still gets every frame, and one that
// stops reading and leaves cancels the upstream and is billed for what was produced.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { request } from 'undici'
import { bearer } from '../support/test-gateway.ts'
import { assertCancelledAndBilled, startChatGateway, type ChatGateway } from '../support/chat-gateway.ts'
import { waitFor } from '../support/wait-for.ts'

let setup: ChatGateway

before(async () => {
  setup = await startChatGateway('delivery', 100_000)
})
after(() => setup.close())

function streamChat(signal?: AbortSignal) {
  return request(`${setup.base}/api/v1/chat/completions`, {
    method: 'POST',
    headers: { ...bearer(setup.key), 'content-type': 'application/json', 'x-request-id': 'stream-req-1' },
    body: JSON.stringify({ model: 'test/model', stream: true, messages: [{ role: 'user', content: 'talk' }] }),
    ...(signal === undefined ? {} : { signal }),
  })
}

/** The text of every content delta in a Chat Completions SSE body, in order. */
function contentOf(sse: string): string {
  let text = ''
  for (const frame of sse.split('\n\n')) {
    if (!frame.startsWith('data: {')) continue
    const chunk = JSON.parse(frame.slice(6)) as { choices: { delta: { content?: string } }[] }
    text += chunk.choices[0]?.delta.content ?? ''
  }
  return text
}

test('a streamed answer carries the hook headers and the generation id, and is counted by /metrics', async () => {
  setup.upstream.script({
    type: 'completion',
    text: 'one two three',
    chunks: 3,
    usage: { input_tokens: 4, output_tokens: 3 },
  })
  const response = await streamChat()
  assert.equal(response.statusCode, 200)
  assert.equal(response.headers['content-type'], 'text/event-stream; charset=utf-8')
  assert.equal(response.headers['cache-control'], 'no-cache')
  assert.equal(response.headers['x-request-id'], 'stream-req-1')
  assert.match(String(response.headers['x-generation-id']), /^gen-/)
  const body = await response.body.text()
  assert.equal(contentOf(body), 'one two three')
  assert.ok(body.endsWith('data: [DONE]\n\n'))
  const metrics = await waitFor(async () => {
    const text = (await setup.gateway.inject({ method: 'GET', url: '/metrics' })).body
    return /switchyard_http_requests_total\{method="POST",route="\/api\/v1\/chat\/completions",status="200"\} 1/.test(
      text,
    )
      ? text
      : undefined
  }, 'the streamed request in the metrics')
  assert.match(
    metrics,
    /switchyard_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/chat\/completions",status="200"\} 1/,
  )
})

test('a client that reads slowly still gets every frame, in order, and the generation completes', async () => {
  const text = Array.from({ length: 400 }, (_, index) => `piece-${index}-${'x'.repeat(2000)} `).join('')
  setup.upstream.script({ type: 'completion', text, chunks: 400, usage: { input_tokens: 4, output_tokens: 400 } })
  const response = await streamChat()
  const generationId = String(response.headers['x-generation-id'])
  let body = ''
  for await (const chunk of response.body) {
    body += (chunk as Buffer).toString('utf8')
    await sleep(2)
  }
  assert.equal(contentOf(body), text)
  assert.match(body, /"usage":\{"prompt_tokens":4,"completion_tokens":400,/)
  assert.ok(body.endsWith('data: [DONE]\n\n'))
  const stored = await waitFor(async () => setup.gateway.findGeneration(generationId), 'the generation record')
  assert.equal(stored.record.status, 'completed')
  assert.equal(stored.record.tokensCompletion, 400)
})

test('a client that stops reading and then leaves cancels the upstream and is billed for what was produced', async () => {
  const text = Array.from({ length: 2000 }, (_, index) => `piece-${index}-${'y'.repeat(4000)} `).join('')
  setup.upstream.script({
    type: 'completion',
    text,
    chunks: 2000,
    chunkDelayMs: 1,
    usage: { input_tokens: 4, output_tokens: 2000 },
  })
  const controller = new AbortController()
  const response = await streamChat(controller.signal)
  const generationId = String(response.headers['x-generation-id'])
  const reader = response.body[Symbol.asyncIterator]()
  await reader.next()
  await sleep(300)
  const abortedAt = Date.now()
  controller.abort()
  // No usage arrived: the produced text is counted with the tokenizer, less than the whole answer.
  await assertCancelledAndBilled(setup, generationId, abortedAt, text.length / 4)
})
