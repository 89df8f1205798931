// The spec's Authentication part: bearer token on every route; missing or invalid -> 401; a
// non-management key on a management route -> 403; disabled or expired keys refused.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { generateKeySecret } from '../../src/identity/api-key-secret.ts'
import { mintKey as mintFixtureKey } from '../workspaces/management-fixtures.ts'
import type { ApiKeyKind } from '../../src/domain/identity.ts'

let gateway: TestGateway

before(async () => {
  gateway = await startTestGateway()
})
after(() => gateway.close())

function mintKey(kind: ApiKeyKind, extra: { expiresAt?: string } = {}): Promise<{ plaintext: string; hash: string }> {
  return mintFixtureKey(gateway, { kind, name: `${kind} key`, ...extra })
}

const managementRoute = { method: 'GET' as const, url: '/api/v1/organization/members' }

async function statusFor(headers: Record<string, string>): Promise<{ status: number; message: string }> {
  const response = await gateway.inject({ ...managementRoute, headers })
  const body = response.json() as { error?: { message: string } }
  return { status: response.statusCode, message: body.error?.message ?? '' }
}

test('missing credentials -> 401', async () => {
  assert.deepEqual((await statusFor({})).status, 401)
  assert.deepEqual((await statusFor({ authorization: 'Basic abc' })).status, 401)
  assert.deepEqual((await statusFor({ authorization: 'Bearer' })).status, 401)
})

test('an unknown key -> 401', async () => {
  const result = await statusFor(bearer(generateKeySecret()))
  assert.equal(result.status, 401)
  assert.match(result.message, /Invalid API key/)
})

test('management, inference and intern keys on a management route: 200, 403, 403', async () => {
  assert.equal((await statusFor(bearer(gateway.adminKey))).status, 200)
  for (const kind of ['inference', 'intern'] as const) {
    const { plaintext } = await mintKey(kind)
    const result = await statusFor(bearer(plaintext))
    assert.equal(result.status, 403)
    assert.equal(result.message, 'Only management keys can perform this operation')
  }
})

test('the scheme is case-insensitive and x-api-key is accepted', async () => {
  assert.equal((await statusFor({ authorization: `bearer ${gateway.adminKey}` })).status, 200)
  assert.equal((await statusFor({ 'x-api-key': gateway.adminKey })).status, 200)
})

test('an expired key -> 401 naming the expiry; one expiring later works', async () => {
  const expired = await mintKey('management', { expiresAt: '2020-01-01T00:00:00.000Z' })
  const result = await statusFor(bearer(expired.plaintext))
  assert.equal(result.status, 401)
  assert.match(result.message, /expired at 2020-01-01T00:00:00.000Z/)
  const valid = await mintKey('management', { expiresAt: '2999-01-01T00:00:00.000Z' })
  assert.equal((await statusFor(bearer(valid.plaintext))).status, 200)
})

test('disabling a key takes effect on the next request, without waiting for any cache', async () => {
  const { plaintext, hash } = await mintKey('management')
  assert.equal((await statusFor(bearer(plaintext))).status, 200)
  const disabled = await gateway.inject({
    method: 'PATCH',
    url: `/api/v1/keys/${hash}`,
    headers: bearer(gateway.adminKey),
    payload: { disabled: true },
  })
  assert.equal(disabled.statusCode, 200, disabled.body)
  const result = await statusFor(bearer(plaintext))
  assert.equal(result.status, 401)
  assert.match(result.message, /disabled/)
})

test('a deleted key is refused at once', async () => {
  const { plaintext, hash } = await mintKey('management')
  assert.equal((await statusFor(bearer(plaintext))).status, 200)
  const deleted = await gateway.inject({
    method: 'DELETE',
    url: `/api/v1/keys/${hash}`,
    headers: bearer(gateway.adminKey),
  })
  assert.equal(deleted.statusCode, 200, deleted.body)
  assert.equal((await statusFor(bearer(plaintext))).status, 401)
})

test('a key created by another instance (not in this cache) is found on first use', async () => {
  const { plaintext } = await mintKey('management')
  assert.equal((await statusFor(bearer(plaintext))).status, 200)
})

test('open routes need no key', async () => {
  for (const url of ['/health', '/ready', '/metrics', '/api/v1/openapi.json']) {
    assert.equal((await gateway.inject({ method: 'GET', url })).statusCode, 200, url)
  }
})
