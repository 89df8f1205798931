// @openrouter/sdk byok.list over a real socket: Switchyard stores no bring-your-own-key credentials (every
// upstream credential is the operator's config), so each workspace's list is empty in the SDK's shape.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { OpenRouter } from '@openrouter/sdk'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

let gateway: TestGateway
let sdk: OpenRouter

before(async () => {
  gateway = await startTestGateway()
  const base = await gateway.listen()
  sdk = new OpenRouter({ apiKey: gateway.adminKey, serverURL: `${base}/api/v1` })
})
after(() => gateway.close())

test('@openrouter/sdk byok.list reads an empty page for the default workspace and a named one', async () => {
  const page = await sdk.byok.list()
  assert.deepEqual(page.result.data, [])
  assert.equal(page.result.totalCount, 0)
  const named = await sdk.byok.list({ workspaceId: 'default', provider: 'openai', limit: 10 })
  assert.equal(named.result.totalCount, 0)
})

test('GET /byok: an unknown workspace is a 404, a bad limit a 400, an inference key a 403', async () => {
  await assert.rejects(
    sdk.byok.list({ workspaceId: 'no-such-workspace' }),
    (error: Error & { statusCode?: number }) => {
      assert.equal(error.statusCode, 404)
      return true
    },
  )
  const badLimit = await gateway.inject({
    method: 'GET',
    url: '/api/v1/byok?limit=0',
    headers: bearer(gateway.adminKey),
  })
  assert.equal(badLimit.statusCode, 400)
  assert.match(badLimit.body, /limit/)
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'inference only' },
  })
  const inferenceKey = (created.json() as { key: string }).key
  const refused = await gateway.inject({ method: 'GET', url: '/api/v1/byok', headers: bearer(inferenceKey) })
  assert.equal(refused.statusCode, 403)
})
