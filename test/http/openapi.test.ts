import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'

let gateway: TestGateway
before(async () => {
  gateway = await startTestGateway()
})
after(() => gateway.close())

test('every registered route is in the OpenAPI document', async () => {
  const response = await gateway.inject({ method: 'GET', url: '/api/v1/openapi.json' })
  assert.equal(response.statusCode, 200)
  const document = response.json() as { openapi: string; paths: Record<string, Record<string, unknown>> }
  assert.equal(document.openapi, '3.1.0')
  const documented = gateway.gateway.app.routes.documented()
  assert.ok(documented.length >= 7)
  const missing = documented
    .map(({ method, url }) => ({ method: method.toLowerCase(), path: url.replace(/:([A-Za-z_]+)/g, '{$1}') }))
    .filter(({ method, path }) => document.paths[path]?.[method] === undefined)
    .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
  assert.deepEqual(missing, [])
})

test('/docs renders the document', async () => {
  const response = await gateway.inject({ method: 'GET', url: '/docs' })
  const page =
    response.statusCode === 302
      ? await gateway.inject({ method: 'GET', url: String(response.headers.location) })
      : response
  assert.equal(page.statusCode, 200)
  assert.match(page.body, /swagger-ui/i)
})
