// The broadcaster reads destinations from memory; a create, update or delete through the API must
// reach it at once (no stale destination receives, no new one is missed).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { sampleTrace } from './support/sample-trace.ts'
import { broadcast } from './support/broadcast.ts'

let gateway: TestGateway
before(async () => {
  gateway = await startTestGateway({
    yaml: 'egress:\n  allow_private_networks: true\nobservability:\n  delivery:\n    poll_interval_ms: 60000\n',
  })
})
after(() => gateway.close())

const enqueue = () => broadcast(gateway, sampleTrace(gateway.gateway.bootstrap.defaultWorkspaceId))
const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  gateway.inject({
    method,
    url: `/api/v1/observability/destinations${url}`,
    headers: bearer(gateway.adminKey),
    ...(payload === undefined ? {} : { payload }),
  })

test('creating, disabling, enabling and deleting a destination changes who receives the next generation', async () => {
  assert.equal(await enqueue(), 0, 'no destination yet (and the empty list is now cached)')
  const created = await call('POST', '', { name: 'hook', type: 'webhook', config: { url: 'http://127.0.0.1:9/hook' } })
  assert.equal(created.statusCode, 201, created.body)
  const id = (created.json() as { data: { id: string } }).data.id
  assert.equal(await enqueue(), 1)
  assert.equal((await call('PATCH', `/${id}`, { enabled: false })).statusCode, 200)
  assert.equal(await enqueue(), 0)
  assert.equal((await call('PATCH', `/${id}`, { enabled: true })).statusCode, 200)
  assert.equal(await enqueue(), 1)
  assert.equal((await call('DELETE', `/${id}`)).statusCode, 200)
  assert.equal(await enqueue(), 0)
})
