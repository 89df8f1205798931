// Every failure answers in the spec's envelope {error: {code, message}} with code = HTTP status.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

let gateway: TestGateway

before(async () => {
  gateway = await startTestGateway({ yaml: 'server:\n  body_limit_bytes: 2048\n' })
  gateway.gateway.app.fastify.get('/test/boom', { config: { auth: 'none' } }, async () => {
    throw new Error('database exploded with secret detail')
  })
})
after(() => gateway.close())

function assertEnvelope(
  response: { statusCode: number; json(): unknown; headers: Record<string, unknown> },
  status: number,
  message: RegExp,
) {
  assert.equal(response.statusCode, status)
  assert.match(String(response.headers['content-type']), /^application\/json/)
  const body = response.json() as { error: { code: number; message: string } }
  assert.equal(body.error.code, status)
  assert.match(body.error.message, message)
  assert.deepEqual(Object.keys(body), ['error'])
}

const members = '/api/v1/organization/members'

test('malformed JSON -> 400', async () => {
  const response = await gateway.inject({
    method: 'POST',
    url: members,
    headers: { ...bearer(gateway.adminKey), 'content-type': 'application/json' },
    payload: '{"email":',
  })
  assertEnvelope(response, 400, /^Malformed JSON body/)
})

test('a body over the limit -> 413 naming the limit; a body at the limit is read', async () => {
  const headers = { ...bearer(gateway.adminKey), 'content-type': 'application/json' }
  const over = JSON.stringify({ email: `${'a'.repeat(2048)}@x.io` })
  assertEnvelope(
    await gateway.inject({ method: 'POST', url: members, headers, payload: over }),
    413,
    /the limit is 2048 bytes/,
  )
  const prefix = '{"email":"a@b.co","name":"'
  const atLimit = `${prefix}${'n'.repeat(2048 - prefix.length - 2)}"}`
  assert.equal(Buffer.byteLength(atLimit), 2048)
  const response = await gateway.inject({ method: 'POST', url: members, headers, payload: atLimit })
  assertEnvelope(response, 400, /body\.name: must not have more than 200 characters/)
})

test('unknown route -> 404', async () => {
  assertEnvelope(
    await gateway.inject({ method: 'GET', url: '/api/v1/nothing-here' }),
    404,
    /No route for GET \/api\/v1\/nothing-here/,
  )
})

test('wrong method -> 405 with Allow', async () => {
  const response = await gateway.inject({ method: 'DELETE', url: members, headers: bearer(gateway.adminKey) })
  assertEnvelope(response, 405, /DELETE is not allowed.*GET, POST/)
  assert.equal(response.headers.allow, 'GET, POST')
})

test('validation failure -> 400 naming every bad field', async () => {
  const response = await gateway.inject({
    method: 'POST',
    url: members,
    headers: bearer(gateway.adminKey),
    payload: { email: 'x@y.z', role: 'boss', extra: 1 },
  })
  assertEnvelope(response, 400, /body\.role: must be one of "admin", "member"/)
  assert.match((response.json() as { error: { message: string } }).error.message, /body\.extra: unknown field/)
})

test('query validation names the parameter', async () => {
  const response = await gateway.inject({
    method: 'GET',
    url: `${members}?limit=101`,
    headers: bearer(gateway.adminKey),
  })
  assertEnvelope(
    response,
    400,
    /querystring\.limit: must be less than or equal to 100|querystring\.limit: must not be greater than 100|querystring\.limit/,
  )
})

test('a non-JSON content type -> 415', async () => {
  const response = await gateway.inject({
    method: 'POST',
    url: members,
    headers: { ...bearer(gateway.adminKey), 'content-type': 'text/plain' },
    payload: 'email=x',
  })
  assertEnvelope(response, 415, /application\/json/)
})

test('an unexpected exception -> 500 without its detail', async () => {
  const response = await gateway.inject({ method: 'GET', url: '/test/boom' })
  assertEnvelope(response, 500, /^Internal Server Error$/)
  assert.ok(!response.body.includes('secret detail'))
})

test('the deprecated payments route always answers 410, with or without a key', async () => {
  for (const headers of [{}, bearer(gateway.adminKey), bearer('sk-sy-v1-wrong')]) {
    const response = await gateway.inject({ method: 'POST', url: '/api/v1/credits/coinbase', headers })
    assertEnvelope(response, 410, /web credits purchase flow/)
  }
})

test('every response carries a request id; a sane incoming one is kept', async () => {
  const given = await gateway.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'req-abc.123' } })
  assert.equal(given.headers['x-request-id'], 'req-abc.123')
  const generated = await gateway.inject({
    method: 'GET',
    url: '/health',
    headers: { 'x-request-id': 'bad id with spaces' },
  })
  assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/)
})
