import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

let gateway: TestGateway
before(async () => {
  gateway = await startTestGateway()
})
after(() => gateway.close())

test('/health and /ready answer', async () => {
  assert.deepEqual((await gateway.inject({ method: 'GET', url: '/health' })).json(), { status: 'ok' })
  assert.deepEqual((await gateway.inject({ method: 'GET', url: '/ready' })).json(), { status: 'ready' })
})

test('/metrics counts requests per route pattern and status, with latency histograms', async () => {
  await gateway.inject({ method: 'GET', url: '/api/v1/organization/members', headers: bearer(gateway.adminKey) })
  await gateway.inject({ method: 'GET', url: '/api/v1/organization/members' })
  const text = (await gateway.inject({ method: 'GET', url: '/metrics' })).body
  assert.match(
    text,
    /switchyard_http_requests_total\{method="GET",route="\/api\/v1\/organization\/members",status="200"\} 1/,
  )
  assert.match(
    text,
    /switchyard_http_requests_total\{method="GET",route="\/api\/v1\/organization\/members",status="401"\} 1/,
  )
  assert.match(
    text,
    /switchyard_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/v1\/organization\/members",status="200"\}/,
  )
})

test('/ready fails with 503 when the store is gone', async () => {
  const other = await import('../support/test-gateway.ts').then((module) => module.startTestGateway())
  // internals: no API breaks the store; closing the gateway's own connection is how it goes away.
  await other.internals.foundation.store.close()
  const response = await other.inject({ method: 'GET', url: '/ready' })
  assert.equal(response.statusCode, 503)
  assert.equal((response.json() as { error: { code: number } }).error.code, 503)
  await other.gateway.app.fastify.close()
  await other.database.dispose()
})

test('organization members: list with total, add with a generated user id, duplicate email 409', async () => {
  const headers = bearer(gateway.adminKey)
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/organization/members',
    headers,
    payload: { email: 'Dev@Example.com', name: 'Ada Lovelace', role: 'admin' },
  })
  assert.equal(created.statusCode, 201)
  const member = (created.json() as { data: Record<string, unknown> }).data
  assert.match(String(member.user_id), /^[0-9a-f-]{36}$/)
  assert.equal(member.email, 'dev@example.com')
  assert.equal(member.role, 'org:admin')
  assert.equal(member.first_name, 'Ada')
  assert.equal(member.last_name, 'Lovelace')
  const duplicate = await gateway.inject({
    method: 'POST',
    url: '/api/v1/organization/members',
    headers,
    payload: { email: 'dev@example.com' },
  })
  assert.equal(duplicate.statusCode, 409)
  const list = (
    await gateway.inject({ method: 'GET', url: '/api/v1/organization/members?limit=1&offset=1', headers })
  ).json() as { data: unknown[]; total_count: number }
  assert.equal(list.total_count, 2)
  assert.equal(list.data.length, 1)
})

test('graceful shutdown lets an in-flight request finish', async () => {
  const other = await import('../support/test-gateway.ts').then((module) => module.startTestGateway())
  let release: () => void = () => undefined
  let started = false
  other.gateway.app.fastify.get('/test/slow', { config: { auth: 'none' } }, async () => {
    started = true
    await new Promise<void>((resolve) => {
      release = resolve
    })
    return { finished: true }
  })
  const base = await other.listen()
  const inFlight = fetch(`${base}/test/slow`).then(async (response) => ({
    status: response.status,
    body: await response.json(),
  }))
  while (!started) await new Promise((resolve) => setTimeout(resolve, 5))
  const closing = other.close()
  release()
  assert.deepEqual(await inFlight, { status: 200, body: { finished: true } })
  await closing
})
