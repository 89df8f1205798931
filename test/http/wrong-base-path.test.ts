// A client whose base URL misses /api/v1 (the OpenAI habit of `/v1`, a bare host, the Anthropic SDK given
// .../api/v1) gets a 404 in the error envelope that says where the API is.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'

let gateway: TestGateway

before(async () => {
  gateway = await startTestGateway()
})
after(() => gateway.close())

async function notFoundMessage(method: 'GET' | 'POST', url: string): Promise<string> {
  const response = await gateway.inject({ method, url, payload: method === 'POST' ? {} : undefined })
  assert.equal(response.statusCode, 404)
  assert.match(String(response.headers['content-type']), /^application\/json/)
  const body = response.json() as { error: { code: number; message: string } }
  assert.deepEqual(Object.keys(body), ['error'])
  assert.equal(body.error.code, 404)
  return body.error.message
}

test('POST /v1/chat/completions -> 404 naming /api/v1/chat/completions', async () => {
  assert.equal(
    await notFoundMessage('POST', '/v1/chat/completions'),
    'No route for POST /v1/chat/completions. Switchyard serves the API under /api/v1: did you mean /api/v1/chat/completions?',
  )
})

test('other /v1 paths and bare OpenAI/Anthropic roots point to the same path under /api/v1', async () => {
  const cases: [method: 'GET' | 'POST', url: string, suggested: string][] = [
    ['POST', '/v1/responses', '/api/v1/responses'],
    ['POST', '/v1/messages?beta=true', '/api/v1/messages'],
    ['GET', '/v1/models', '/api/v1/models'],
    ['POST', '/chat/completions', '/api/v1/chat/completions'],
    ['POST', '/embeddings', '/api/v1/embeddings'],
    ['GET', '/models', '/api/v1/models'],
  ]
  for (const [method, url, suggested] of cases) {
    const message = await notFoundMessage(method, url)
    assert.ok(message.endsWith(`Switchyard serves the API under /api/v1: did you mean ${suggested}?`), message)
  }
})

test('the Anthropic SDK given .../api/v1 (it appends /v1/messages) is told to use .../api', async () => {
  const message = await notFoundMessage('POST', '/api/v1/v1/messages')
  assert.match(message, /did you mean \/api\/v1\/messages\? The Anthropic SDK adds \/v1 itself/)
  assert.match(message, /base URL http:\/\/<host>:<port>\/api$/)
})

test('an unknown /v1 path with no counterpart still says where the API is', async () => {
  const message = await notFoundMessage('GET', '/v1/no-such-thing')
  assert.match(
    message,
    /^No route for GET \/v1\/no-such-thing\. Switchyard serves the API under \/api\/v1: set the client's base URL/,
  )
  assert.doesNotMatch(message, /did you mean/)
})

test('an unknown path elsewhere gets no base-path hint', async () => {
  assert.equal(await notFoundMessage('GET', '/api/v1/nothing-here'), 'No route for GET /api/v1/nothing-here')
  assert.equal(await notFoundMessage('GET', '/favicon.ico'), 'No route for GET /favicon.ico')
})
