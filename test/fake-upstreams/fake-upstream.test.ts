import { test } from 'node:test'
import assert from 'node:assert/strict'
import { request } from 'undici'
import type { ChatCompletion, CreateEmbeddingResponse } from 'openai/resources'
import { startFakeUpstream } from './fake-upstream.ts'

/** The error bodies the fakes answer: Anthropic's and OpenAI's `error.type`/`message`, Gemini's `code`/`status`. */
interface ErrorBody {
  readonly error: {
    readonly type?: string
    readonly message?: string
    readonly code?: number
    readonly status?: string
  }
}

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

test('records each request and answers a default completion when nothing is scripted', async () => {
  const upstream = await startFakeUpstream({ api: 'openai-chat' })
  try {
    assert.match(upstream.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    const response = await post(
      `${upstream.url}/chat/completions`,
      { model: 'm1', messages: [] },
      { authorization: 'Bearer sk-1' },
    )
    const body = (await response.body.json()) as ChatCompletion
    assert.equal(response.statusCode, 200)
    assert.equal(body.choices[0]?.message.content, 'Hello from the fake upstream.')
    assert.equal(body.model, 'm1')
    const recorded = await upstream.settled(0)
    assert.equal(recorded.method, 'POST')
    assert.equal(recorded.path, '/v1/chat/completions')
    assert.equal(recorded.headers.authorization, 'Bearer sk-1')
    assert.deepEqual(recorded.body, { model: 'm1', messages: [] })
    assert.ok(recorded.respondedAt !== undefined && recorded.respondedAt >= recorded.receivedAt)
    assert.equal(recorded.abortedAt, undefined)
  } finally {
    await upstream.close()
  }
})

test('answers scripted replies in order: 429 with retry-after, 503, then success', async () => {
  const upstream = await startFakeUpstream({ api: 'anthropic' })
  try {
    upstream.script(
      { type: 'error', status: 429, retryAfterSeconds: 3 },
      { type: 'error', status: 529 },
      { type: 'completion', text: 'ok' },
    )
    const limited = await post(`${upstream.url}/v1/messages`, { model: 'c' })
    assert.equal(limited.statusCode, 429)
    assert.equal(limited.headers['retry-after'], '3')
    assert.deepEqual(((await limited.body.json()) as ErrorBody).error.type, 'rate_limit_error')
    const overloaded = await post(`${upstream.url}/v1/messages`, { model: 'c' })
    assert.equal(overloaded.statusCode, 529)
    assert.equal(((await overloaded.body.json()) as ErrorBody).error.type, 'overloaded_error')
    const ok = await post(`${upstream.url}/v1/messages`, { model: 'c' })
    assert.equal(((await ok.body.json()) as { content: { text?: string }[] }).content[0]?.text, 'ok')
  } finally {
    await upstream.close()
  }
})

test('a reset drops the connection without an answer', async () => {
  const upstream = await startFakeUpstream({ api: 'gemini' })
  try {
    upstream.script({ type: 'reset' })
    await assert.rejects(post(`${upstream.url}/v1beta/models/g:generateContent`, {}))
    assert.ok((await upstream.settled(0)).droppedAt !== undefined)
  } finally {
    await upstream.close()
  }
})

test('refuses a wrong key and unknown routes in the API error shape', async () => {
  const upstream = await startFakeUpstream({ api: 'gemini', apiKey: 'right' })
  try {
    const denied = await post(`${upstream.url}/v1beta/models/g:generateContent`, {}, { 'x-goog-api-key': 'wrong' })
    assert.equal(denied.statusCode, 401)
    assert.equal(((await denied.body.json()) as ErrorBody).error.code, 401)
    const missing = await post(`${upstream.url}/v1/chat/completions`, {}, { 'x-goog-api-key': 'right' })
    assert.equal(missing.statusCode, 404)
    assert.equal(((await missing.body.json()) as ErrorBody).error.status, 'NOT_FOUND')
  } finally {
    await upstream.close()
  }
})

test('streams with per-chunk latency and records when the client aborts', async () => {
  const upstream = await startFakeUpstream({ api: 'openai-chat' })
  try {
    upstream.script({ type: 'completion', text: 'abcdefghijklmnop', chunks: 16, chunkDelayMs: 30 })
    const response = await post(`${upstream.url}/chat/completions`, { model: 'm', stream: true })
    assert.equal(response.headers['content-type'], 'text/event-stream')
    const first = await response.body[Symbol.asyncIterator]().next()
    assert.equal(first.done, false)
    response.body.destroy()
    const recorded = await upstream.settled(0)
    assert.ok(recorded.abortedAt !== undefined, 'the abort is recorded')
    assert.equal(recorded.respondedAt, undefined)
  } finally {
    await upstream.close()
  }
})

test('openai-style embeddings return one deterministic vector per input', async () => {
  const upstream = await startFakeUpstream({ api: 'openai-chat' })
  try {
    upstream.script({ type: 'embeddings', dimensions: 4 })
    const first = (await (
      await post(`${upstream.url}/embeddings`, { model: 'e', input: ['a', 'b'] })
    ).body.json()) as CreateEmbeddingResponse
    const second = (await (
      await post(`${upstream.url}/embeddings`, { model: 'e', input: 'a' })
    ).body.json()) as CreateEmbeddingResponse
    assert.equal(first.object, 'list')
    assert.equal(first.data.length, 2)
    assert.equal(first.data[0]?.embedding.length, 4)
    assert.notDeepEqual(first.data[0]?.embedding, first.data[1]?.embedding)
    assert.equal(second.data[0]?.embedding.length, 8, 'the unscripted default has 8 dimensions')
    assert.equal(first.usage.prompt_tokens, 2)
  } finally {
    await upstream.close()
  }
})

test('gemini embedContent and batchEmbedContents', async () => {
  const upstream = await startFakeUpstream({ api: 'gemini' })
  try {
    upstream.script({ type: 'embeddings', vectors: [[0.5, -0.5]] })
    const single = (await (
      await post(`${upstream.url}/v1beta/models/text-embedding-004:embedContent`, {
        content: { parts: [{ text: 'hi' }] },
      })
    ).body.json()) as unknown
    assert.deepEqual(single, { embedding: { values: [0.5, -0.5] } })
    const batch = (await (
      await post(`${upstream.url}/v1beta/models/text-embedding-004:batchEmbedContents`, {
        requests: [
          { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] } },
          { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] } },
        ],
      })
    ).body.json()) as { embeddings: { values: number[] }[] }
    assert.equal(batch.embeddings.length, 2)
    assert.equal(batch.embeddings[0]?.values.length, 8)
  } finally {
    await upstream.close()
  }
})

test('a reply that does not fit the endpoint is a visible 500, not a silent default', async () => {
  const upstream = await startFakeUpstream({ api: 'openai-chat' })
  try {
    upstream.script({ type: 'embeddings' })
    const response = await post(`${upstream.url}/chat/completions`, { model: 'm' })
    assert.equal(response.statusCode, 500)
    assert.match(String(((await response.body.json()) as ErrorBody).error.message), /does not fit/)
  } finally {
    await upstream.close()
  }
})
