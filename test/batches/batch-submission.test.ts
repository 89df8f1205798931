// Submitting batches: every line validated up front (first bad line named), key order, slim errors,
// both route prefixes, and the real beta path clients call.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import {
  chatLines,
  embeddingLines,
  embeddingModel,
  maxEmbeddingInputChars,
  model,
  startBatchFixture,
  type BatchAnswerBody,
  type BatchFixture,
} from './batch-fixture.ts'

let fixture: BatchFixture

before(async () => {
  fixture = await startBatchFixture()
  await fixture.worker.stop()
})
after(() => fixture.close())

const rawSubmit = async (payload: string, path = '/api/v1/batches') => {
  const response = await fixture.gateway.inject({
    method: 'POST',
    url: path,
    headers: { authorization: `Bearer ${fixture.key}`, 'content-type': 'application/json' },
    payload,
  })
  return { status: response.statusCode, body: response.json() as BatchAnswerBody }
}

test('a valid batch is accepted with 202 in validating at both prefixes, and GET shows it without results', async () => {
  for (const path of ['/api/v1/batches', '/api/beta/batches']) {
    const answer = await rawSubmit(
      JSON.stringify({ endpoint: '/v1/chat/completions', model, completion_window: '24h', requests: chatLines(3) }),
      path,
    )
    assert.equal(answer.status, 202, JSON.stringify(answer.body))
    assert.equal(answer.body.object, 'batch')
    assert.equal(answer.body.status, 'validating')
    assert.deepEqual(answer.body.request_counts, { total: 3, completed: 0, failed: 0 })
    assert.equal(answer.body.finalized_at, null)
    const fetched = await fixture.request('GET', `/api/beta/batches/${answer.body.id}`)
    assert.equal(fetched.status, 200)
    assert.equal(fetched.body.results, null)
  }
})

test('the first bad line is named, with the dialect decode message, in the slim error body', async () => {
  const lines: unknown[] = chatLines(5)
  lines[3] = { custom_id: 'line-3', body: { messages: 'not a list' } }
  lines[4] = { custom_id: 'line-4' }
  const answer = await rawSubmit(JSON.stringify({ endpoint: '/v1/chat/completions', model, requests: lines }))
  assert.equal(answer.status, 400)
  assert.deepEqual(Object.keys(answer.body.error).sort(), ['code', 'message'])
  assert.equal(answer.body.error.message, 'requests[3].body.messages: must be array')
})

test('line-level rules: custom_id required and unique, body model equals the batch model, no streaming', async () => {
  const cases: [unknown, RegExp][] = [
    [{ body: { messages: [] } }, /^custom_id is required on requests\[1\]\.$/],
    [
      { custom_id: 'line-0', body: { messages: [{ role: 'user', content: 'x' }] } },
      /requests\[1\]\.custom_id: "line-0" is used by an earlier request/,
    ],
    [
      { custom_id: 'other', body: { model: 'test/else', messages: [{ role: 'user', content: 'x' }] } },
      /requests\[1\]\.body\.model: "test\/else" differs from the batch model/,
    ],
    [
      { custom_id: 'other', body: { stream: true, messages: [{ role: 'user', content: 'x' }] } },
      /requests\[1\]\.body\.stream/,
    ],
    [{ custom_id: 'other' }, /^body is required on requests\[1\]\.$/],
  ]
  for (const [line, expected] of cases) {
    const answer = await rawSubmit(
      JSON.stringify({ endpoint: '/v1/chat/completions', model, requests: [chatLines(1)[0], line] }),
    )
    assert.equal(answer.status, 400, JSON.stringify(line))
    assert.match(answer.body.error.message, expected)
  }
})

test('the anthropic and responses endpoints validate lines with their own dialect', async () => {
  const messages = await rawSubmit(
    JSON.stringify({
      endpoint: '/v1/messages',
      model,
      requests: [{ custom_id: 'a', body: { messages: [{ role: 'user', content: 'hi' }] } }],
    }),
  )
  assert.equal(messages.status, 400)
  assert.equal(messages.body.error.message, 'requests[0].body.max_tokens: is required')
  const responses = await rawSubmit(
    JSON.stringify({ endpoint: '/v1/responses', model, requests: [{ custom_id: 'a', body: { input: 'hi' } }] }),
  )
  assert.equal(responses.status, 202, JSON.stringify(responses.body))
})

test('embeddings lines are checked as POST /embeddings checks them; a bad line is named and nothing is stored', async () => {
  const db = fixture.gateway.store.db
  const stored = async () => ({
    batches: (await db.selectFrom('batches').select('id').execute()).length,
    items: (await db.selectFrom('batch_items').select('id').execute()).length,
  })
  const before = await stored()
  const tooLong = 'x'.repeat(maxEmbeddingInputChars + 1)
  const cases: [unknown, RegExp][] = [
    [{ custom_id: 'bad', body: {} }, /^requests\[1\]\.body\.input: is required$/],
    [{ custom_id: 'bad', body: { input: 5 } }, /^requests\[1\]\.body\.input: must be string$/],
    [{ custom_id: 'bad', body: { input: 'x', dimensions: 0 } }, /^requests\[1\]\.body\.dimensions: must be >= 1$/],
    [
      { custom_id: 'bad', body: { input: tooLong } },
      /^requests\[1\]\.body\.input: The embeddings input is 2001 characters; this gateway accepts at most 2000 per request \(embeddings\.max_input_chars\)/,
    ],
    [
      { custom_id: 'bad', body: { model, input: 'x' } },
      /^requests\[1\]\.body\.model: "test\/chat" differs from the batch model "test\/embed"/,
    ],
    [
      { custom_id: 'bad', body: { messages: [{ role: 'user', content: 'a chat line' }] } },
      /^requests\[1\]\.body\.input: is required$/,
    ],
  ]
  for (const [line, expected] of cases) {
    const answer = await rawSubmit(
      JSON.stringify({ endpoint: '/v1/embeddings', model: embeddingModel, requests: [embeddingLines(1)[0], line] }),
    )
    assert.equal(answer.status, 400, JSON.stringify(line))
    assert.match(answer.body.error.message, expected)
  }
  assert.deepEqual(await stored(), before, 'a refused batch stores nothing')

  const lines = [
    ...embeddingLines(2),
    { custom_id: 'same-model', body: { model: embeddingModel, input: ['a', 'b'], dimensions: 4 } },
  ]
  const accepted = await rawSubmit(
    JSON.stringify({ endpoint: '/v1/embeddings', model: embeddingModel, requests: lines }),
  )
  assert.equal(accepted.status, 202, JSON.stringify(accepted.body))
  assert.equal(accepted.body.endpoint, '/v1/embeddings')
  assert.deepEqual(await stored(), { batches: before.batches + 1, items: before.items + 3 })
})

test('batch-level rules: key order, endpoint, completion window, provider and callback_url', async () => {
  const requests = JSON.stringify(chatLines(1))
  const cases: [string, RegExp][] = [
    [
      `{"requests": ${requests}, "endpoint": "/v1/chat/completions", "model": "${model}"}`,
      /endpoint is required and must come before requests/,
    ],
    [
      `{"endpoint": "/v1/chat/completions", "requests": ${requests}, "model": "${model}"}`,
      /model is required and must come before requests/,
    ],
    [
      `{"endpoint": "/v1/chat/completions", "model": "${model}", "requests": ${requests}, "callback_url": "https://example.com/hook"}`,
      /callback_url must come before requests/,
    ],
    [`{"endpoint": "/v1/images", "model": "${model}", "requests": ${requests}}`, /endpoint: must be one of/],
    [
      `{"endpoint": "/v1/chat/completions", "model": "${model}", "completion_window": "1h", "requests": ${requests}}`,
      /only "24h"/,
    ],
    [
      `{"endpoint": "/v1/chat/completions", "model": "${model}", "provider": {"order": ["x"]}, "requests": ${requests}}`,
      /provider\.order: batches honour only/,
    ],
    [
      `{"endpoint": "/v1/chat/completions", "model": "${model}", "callback_url": "ftp://x", "requests": ${requests}}`,
      /callback_url: must be an https URL/,
    ],
    [`{"endpoint": "/v1/chat/completions", "model": "${model}", "requests": []}`, /at least one request/],
    [
      `{"endpoint": "/v1/chat/completions", "model": "${model}", "requests": [{"custom_id": "a", "body": {]}`,
      /Malformed JSON body/,
    ],
  ]
  for (const [payload, expected] of cases) {
    const answer = await rawSubmit(payload)
    assert.equal(answer.status, 400, payload)
    assert.match(answer.body.error.message, expected, payload)
  }
})

test('unknown batches answer 404 "Batch not found." and a missing key 401', async () => {
  assert.deepEqual(await fixture.request('GET', '/api/v1/batches/batch_nope'), {
    status: 404,
    body: { error: { code: 404, message: 'Batch not found.' } },
  })
  const anonymous = await fixture.gateway.inject({ method: 'GET', url: '/api/v1/batches' })
  assert.equal(anonymous.statusCode, 401)
})
