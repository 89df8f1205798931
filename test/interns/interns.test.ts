// Intern records over HTTP: creation rules and idempotency, updates, lifecycle moves, list filters.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { call, createInternVia, mintKey, noRuntime, seedingArea, type ItemList } from './intern-test-kit.ts'

let gateway: TestGateway
let key: string
let workspaceId: string
const create = (body: unknown, headers: Record<string, string> = {}) =>
  call(gateway, key, { method: 'POST', url: '/api/v1/interns', body, headers })

before(async () => {
  gateway = await startTestGateway({ yaml: noRuntime })
  workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
  key = await mintKey(gateway, 'inference', workspaceId)
})
after(() => gateway.close())

test('create: 201 with the bare Intern, 200 on replay, 422 for the same key with another body', async () => {
  const first = await create(
    { name: 'replayed', description: 'd', workspace_id: workspaceId },
    { 'idempotency-key': 'key-1' },
  )
  assert.equal(first.status, 201)
  assert.deepEqual(Object.keys(first.json).sort(), [
    'attached_vault_id',
    'created_at',
    'description',
    'hostname',
    'id',
    'instructions',
    'last_failure_message',
    'model',
    'name',
    'progress',
    'status',
    'updated_at',
    'vault_id',
    'workspace_id',
  ])
  assert.equal(first.json.status, 'stopped')
  assert.equal(first.json.workspace_id, workspaceId)
  const replay = await create(
    { workspace_id: workspaceId, description: 'd', name: 'replayed' },
    { 'idempotency-key': 'key-1' },
  )
  assert.equal(replay.status, 200)
  assert.equal(replay.json.id, first.json.id)
  const reused = await create({ name: 'replayed', description: 'other' }, { 'idempotency-key': 'key-1' })
  assert.equal(reused.status, 422)
  assert.deepEqual(reused.json.error.metadata, { reason: 'idempotency_key_reused', retryable: false })
  const nameTaken = await create({ name: 'replayed' }, { 'idempotency-key': 'key-2' })
  assert.equal(nameTaken.status, 409)
  assert.match(nameTaken.json.error.message, /"replayed" already exists/)
})

test('create without Idempotency-Key derives one from the body', async () => {
  const first = await create({ name: 'derived', instructions: 'be brief' })
  assert.equal(first.status, 201)
  const again = await create({ instructions: 'be brief', name: 'derived' })
  assert.equal(again.status, 200)
  assert.equal(again.json.id, first.json.id)
  assert.equal((await create({ name: 'derived', instructions: 'other' })).status, 409)
})

test('create rules: name 2..17 and pattern, text limits, no extra fields, the key workspace only', async () => {
  for (const name of ['ab', 'a'.repeat(17), 'a1-b2-c3', 'x9']) assert.equal((await create({ name })).status, 201, name)
  for (const name of ['a', 'a'.repeat(18), '1ab', 'Ab', 'a--b', 'a-', '-a', 'a_b'])
    assert.equal((await create({ name })).status, 400, name)
  assert.equal(
    (await create({ name: 'desc-max', description: 'd'.repeat(2000), instructions: 'i'.repeat(100000) })).status,
    201,
  )
  assert.equal((await create({ name: 'desc-over', description: 'd'.repeat(2001) })).status, 400)
  assert.equal((await create({ name: 'instr-over', instructions: 'i'.repeat(100001) })).status, 400)
  assert.equal((await create({ name: 'nulls', description: null, instructions: null })).status, 201)
  assert.equal((await create({ name: 'extra', colour: 'blue' })).status, 400)
  assert.equal((await create({ name: 'elsewhere', workspace_id: '00000000-0000-4000-8000-000000000000' })).status, 404)
  assert.equal((await create({ name: 'bad-vault', vault_id: 'not-a-uuid' })).status, 400)
  assert.equal((await create({ name: 'longkey' }, { 'idempotency-key': 'k'.repeat(256) })).status, 400)
  assert.equal((await create({ name: 'longkey' }, { 'idempotency-key': 'k'.repeat(255) })).status, 201)
  const provisioned = await create({ name: 'eager', provision: true })
  assert.equal(provisioned.json.status, 'queued', 'provision: true queues the intern for a runtime')
})

test('PATCH updates fields, null clears, names stay unique', async () => {
  const intern = await createInternVia(gateway, key, { name: 'patchme', description: 'old' })
  await createInternVia(gateway, key, { name: 'taken' })
  const url = `/api/v1/interns/${intern.id}`
  const patched = await call(gateway, key, {
    method: 'PATCH',
    url,
    body: { description: null, instructions: 'new', model: 'acme/fast-1:free', name: 'patched' },
  })
  assert.equal(patched.status, 200)
  assert.equal(patched.json.description, null)
  assert.equal(patched.json.instructions, 'new')
  assert.equal(patched.json.model, 'acme/fast-1:free')
  assert.equal(patched.json.name, 'patched')
  assert.equal((await call(gateway, key, { method: 'GET', url })).json.name, 'patched')
  assert.equal((await call(gateway, key, { method: 'PATCH', url, body: { name: 'taken' } })).status, 409)
  assert.equal((await call(gateway, key, { method: 'PATCH', url, body: { model: 'no-slash' } })).status, 400)
  assert.equal((await call(gateway, key, { method: 'PATCH', url, body: { vault_id: intern.vault_id } })).status, 400)
  assert.equal(
    (await call(gateway, key, { method: 'GET', url: '/api/v1/interns/00000000-0000-4000-8000-000000000000' })).status,
    404,
  )
})

test('lifecycle over HTTP: provision queues, illegal moves are 409 naming the state, bodies refused', async () => {
  const intern = await createInternVia(gateway, key, { name: 'cycle' })
  const url = `/api/v1/interns/${intern.id}`
  const provision = await call(gateway, key, { method: 'POST', url: `${url}/provision` })
  assert.deepEqual([provision.status, provision.json], [202, { provisioning: true }])
  assert.equal((await call(gateway, key, { method: 'GET', url })).json.status, 'queued')
  const again = await call(gateway, key, { method: 'POST', url: `${url}/provision` })
  assert.equal(again.status, 409)
  assert.match(again.json.error.message, /is queued/)
  assert.equal((await call(gateway, key, { method: 'POST', url: `${url}/suspend`, body: { force: true } })).status, 400)
  const suspend = await call(gateway, key, { method: 'POST', url: `${url}/suspend` })
  assert.deepEqual([suspend.status, suspend.json], [200, { suspended: true }])
  assert.match((await call(gateway, key, { method: 'POST', url: `${url}/suspend` })).json.error.message, /is stopped/)
  const removed = await call(gateway, key, { method: 'DELETE', url })
  assert.deepEqual([removed.status, removed.json], [202, { deleting: true }])
  assert.equal((await call(gateway, key, { method: 'GET', url })).json.status, 'destroying')
  assert.match((await call(gateway, key, { method: 'DELETE', url })).json.error.message, /is destroying/)
  assert.match(
    (await call(gateway, key, { method: 'POST', url: `${url}/provision` })).json.error.message,
    /is destroying/,
  )
})

test('a destroy_failed intern whose workspace archive failed needs acknowledge_workspace_loss', async () => {
  const intern = await createInternVia(gateway, key, { name: 'stuck' })
  const url = `/api/v1/interns/${intern.id}`
  assert.equal((await call(gateway, key, { method: 'DELETE', url })).status, 202)
  await seedingArea(gateway).interns.applyRuntimeEvent(intern.id, 'runtime_destroy_failed', {
    failureMessage: 'workspace_archive_failed: bucket unreachable',
  })
  const failed = (await call(gateway, key, { method: 'GET', url })).json
  assert.equal(failed.status, 'destroy_failed')
  assert.match(String(failed.last_failure_message), /workspace_archive_failed/)
  assert.equal((await call(gateway, key, { method: 'DELETE', url })).status, 409)
  assert.equal(
    (await call(gateway, key, { method: 'DELETE', url, body: { acknowledge_workspace_loss: true } })).status,
    202,
  )
})

test('list filters: status (comma-separated, at most 8, repeats collapsed), workspace_id, cursor, limit', async () => {
  const queued = await createInternVia(gateway, key, { name: 'filter-q', provision: true })
  const list = (query: string) => call<ItemList>(gateway, key, { method: 'GET', url: `/api/v1/interns?${query}` })
  const onlyQueued = await list('status=queued,queued')
  assert.equal(onlyQueued.status, 200)
  assert.ok(onlyQueued.json.data.every((intern) => intern.status === 'queued'))
  assert.ok(onlyQueued.json.data.some((intern) => intern.id === queued.id))
  const both = await list('status=queued&status=stopped')
  assert.ok(both.json.data.some((intern) => intern.status === 'stopped'))
  assert.equal((await list(`status=${Array(8).fill('queued').join(',')}`)).status, 200)
  assert.equal((await list(`status=${Array(9).fill('queued').join(',')}`)).status, 400)
  assert.match((await list('status=queued,sleeping')).json.error.message, /"sleeping"/)
  assert.equal((await list(`workspace_id=${workspaceId}`)).status, 200)
  assert.equal((await list('workspace_id=00000000-0000-4000-8000-000000000000')).status, 404)
  for (const cursor of ['!!!', 'bm90LWEtY3Vyc29y', Buffer.from('2026-01-01T00:00:00.000Z|x').toString('base64url')]) {
    const malformed = await list(`starting_after=${cursor}`)
    assert.equal(malformed.status, 400, cursor)
    assert.equal(malformed.json.error.metadata?.reason, 'invalid_cursor')
  }
  for (const limit of ['0', '501', 'x']) assert.equal((await list(`limit=${limit}`)).status, 400, limit)
  const page = await list('limit=1')
  assert.equal(page.json.data.length, 1)
  assert.equal(page.json.has_more, true)
  assert.equal(typeof page.json.next_cursor, 'string')
  const all = await list('limit=500')
  assert.equal(all.json.has_more, false)
  assert.equal('next_cursor' in all.json, false)
})
