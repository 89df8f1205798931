// The official @openrouter/sdk against a running gateway over a real socket: create, get, list, update,
// delete and getCurrentKeyMetadata parse our responses, and a disabled or deleted key is refused.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { OpenRouter } from '@openrouter/sdk'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'

let gateway: TestGateway
let serverURL: string

before(async () => {
  gateway = await startTestGateway()
  serverURL = `${await gateway.listen()}/api/v1`
})
after(() => gateway.close())

test('apiKeys.create / get / list / update / delete and getCurrentKeyMetadata', async () => {
  const admin = new OpenRouter({ apiKey: gateway.adminKey, serverURL })
  const expiresAt = new Date('2099-06-30T12:34:56.789Z')
  const created = await admin.apiKeys.create({
    requestBody: { name: 'sdk key', limit: 20, limitReset: 'monthly', includeByokInLimit: true, expiresAt },
  })
  assert.match(created.key, /^sk-sy-v1-/)
  assert.equal(created.data.name, 'sdk key')
  assert.equal(created.data.limit, 20)
  assert.equal(created.data.limitRemaining, 20)
  assert.equal(created.data.limitReset, 'monthly')
  assert.equal(created.data.includeByokInLimit, true)
  assert.equal(created.data.expiresAt?.toISOString(), expiresAt.toISOString())
  const hash = created.data.hash

  const fetched = await admin.apiKeys.get({ hash })
  assert.equal(fetched.data.hash, hash)
  assert.equal(fetched.data.usage, 0)

  const listed = await admin.apiKeys.list({ includeDisabled: true, offset: 0 })
  assert.ok(listed.data.some((key) => key.hash === hash))

  const updated = await admin.apiKeys.update({ hash, requestBody: { name: 'renamed', limit: null, limitReset: null } })
  assert.equal(updated.data.name, 'renamed')
  assert.equal(updated.data.limit, null)
  assert.equal(updated.data.limitRemaining, null)

  const own = new OpenRouter({ apiKey: created.key, serverURL })
  const current = await own.apiKeys.getCurrentKeyMetadata()
  assert.equal(current.data.isManagementKey, false)
  assert.equal(current.data.label, created.data.label)
  assert.equal(current.data.workspaceId, gateway.gateway.bootstrap.defaultWorkspaceId)

  await admin.apiKeys.update({ hash, requestBody: { disabled: true } })
  await assert.rejects(
    own.apiKeys.getCurrentKeyMetadata(),
    (error: { statusCode?: number }) => error.statusCode === 401,
  )
  await admin.apiKeys.update({ hash, requestBody: { disabled: false } })
  assert.equal((await own.apiKeys.getCurrentKeyMetadata()).data.isManagementKey, false)

  const deleted = await admin.apiKeys.delete({ hash })
  assert.equal(deleted.deleted, true)
  await assert.rejects(
    own.apiKeys.getCurrentKeyMetadata(),
    (error: { statusCode?: number }) => error.statusCode === 401,
  )
  await assert.rejects(admin.apiKeys.get({ hash }), (error: { statusCode?: number }) => error.statusCode === 404)

  const adminView = await admin.apiKeys.getCurrentKeyMetadata()
  assert.equal(adminView.data.isManagementKey, true)
  assert.equal(adminView.data.isProvisioningKey, true)
})
