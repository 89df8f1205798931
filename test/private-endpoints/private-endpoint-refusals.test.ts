// Private endpoints refused or kept as drafts: broken upstreams fail the right checks and stay drafts,
// Idempotency-Key replays, and inputs refused outright.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import type { FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { endpointBody, manage, type EndpointList } from './private-endpoint-kit.ts'
import { startEndpointWorld, type EndpointWorld } from './private-endpoint-world.ts'

let world: EndpointWorld

before(async () => {
  world = await startEndpointWorld()
})
after(() => world.close())

const broken: {
  name: string
  body: Record<string, unknown>
  script: Parameters<FakeUpstream['script']>
  failing: string[]
  reason: string
  status?: number
}[] = [
  {
    name: 'bad credential',
    body: { api_key: 'wrong' },
    script: [],
    failing: ['auth_ok', 'model_found', 'completion_ok', 'stream_ok', 'usage_present'],
    reason: 'upstream_error',
    status: 401,
  },
  {
    name: 'no credential',
    body: { api_key: undefined },
    script: [],
    failing: ['auth_ok', 'model_found', 'completion_ok', 'stream_ok', 'usage_present'],
    reason: 'no_byok_key',
    status: 401,
  },
  {
    name: 'wrong model',
    body: {},
    script: [{ type: 'error', status: 404, message: 'The model `acme-private-1` does not exist' }],
    failing: ['model_found', 'completion_ok', 'stream_ok', 'usage_present'],
    reason: 'model_not_found',
    status: 404,
  },
  {
    name: 'a different model answers',
    body: {},
    script: [{ type: 'completion', model: 'someone-else' }],
    failing: ['model_found'],
    reason: 'model_mismatch',
  },
  {
    name: 'no usage',
    body: {},
    script: [
      { type: 'completion', usage: { input_tokens: 0, output_tokens: 0 } },
      { type: 'completion', usage: { input_tokens: 0, output_tokens: 0 } },
    ],
    failing: ['usage_present'],
    reason: 'missing_usage',
  },
  {
    name: 'broken stream',
    body: {},
    script: [{ type: 'completion' }, { type: 'completion', disconnectAfterFrames: 2 }],
    failing: ['stream_ok'],
    reason: 'invalid_stream',
  },
]

for (const scenario of broken) {
  test(`a broken endpoint (${scenario.name}) fails the right checks and stays a draft`, async () => {
    const { gateway, privateUpstream, home } = world
    privateUpstream.script(...scenario.script)
    const body = endpointBody(privateUpstream.url, {
      model_permaslug: `acme/broken-${scenario.name.replace(/\s+/g, '-')}`,
      activate: { workspace_id: home.workspaceId },
      ...scenario.body,
    })
    if (scenario.body.api_key === undefined && 'api_key' in scenario.body) delete body.api_key
    const created = await manage(gateway, 'POST', '/private-endpoints', body)
    assert.equal(created.status, 422, created.text)
    assert.equal(created.body.error.code, 422)
    assert.equal(created.body.data.endpoint.status, 'draft')
    const checks = created.body.data.validation.checks as {
      name: string
      passed: boolean
      reason?: string
      upstream_status?: number
    }[]
    assert.equal(created.body.data.validation.passed, false)
    assert.deepEqual(
      checks.filter((check) => !check.passed).map((check) => check.name),
      scenario.failing,
    )
    const first = checks.find((check) => !check.passed)!
    assert.equal(first.reason, scenario.reason)
    if (scenario.status !== undefined) assert.equal(first.upstream_status, scenario.status)
    const stored = await manage(gateway, 'GET', `/private-endpoints/${created.body.data.endpoint.id}`)
    assert.equal(stored.body.data.status, 'draft')
    const activate = await manage(gateway, 'POST', `/private-endpoints/${created.body.data.endpoint.id}/activate`)
    assert.equal(activate.status, 409)
  })
}

test('Idempotency-Key: the same request returns the first endpoint; different fields are refused', async () => {
  const { gateway, privateUpstream } = world
  const headers = { 'idempotency-key': 'create-once-1' }
  const body = endpointBody(privateUpstream.url, { model_permaslug: 'acme/idempotent' })
  const first = await manage(gateway, 'POST', '/private-endpoints', body, headers)
  assert.equal(first.status, 201, first.text)
  const again = await manage(gateway, 'POST', '/private-endpoints', body, headers)
  assert.equal(again.status, 200, again.text)
  assert.equal(again.body.data.id, first.body.data.id)
  const reused = await manage(
    gateway,
    'POST',
    '/private-endpoints',
    { ...body, pricing: { prompt: '1', completion: '1' } },
    headers,
  )
  assert.equal(reused.status, 422, reused.text)
  assert.equal(reused.body.error.code, 422)
  assert.equal(reused.body.error.metadata.reason, 'idempotency_key_reused')
  const list = await manage<EndpointList>(gateway, 'GET', '/private-endpoints')
  assert.equal(list.body.data.filter((entry) => entry.model_permaslug === 'acme/idempotent').length, 1)
})

test('Idempotency-Key with activate: a replay of a failed activation answers the kept draft and its validation', async () => {
  const { gateway, privateUpstream, home } = world
  const headers = { 'idempotency-key': 'activate-once-1' }
  const body = endpointBody(privateUpstream.url, {
    model_permaslug: 'acme/idempotent-activate',
    api_key: 'wrong',
    activate: { workspace_id: home.workspaceId },
  })
  const first = await manage(gateway, 'POST', '/private-endpoints', body, headers)
  assert.equal(first.status, 422, first.text)
  const arrived = privateUpstream.requests.length
  const again = await manage(gateway, 'POST', '/private-endpoints', body, headers)
  assert.equal(again.status, 422, again.text)
  assert.equal(again.body.data.endpoint.id, first.body.data.endpoint.id)
  assert.deepEqual(again.body.data.validation, first.body.data.validation)
  assert.equal(privateUpstream.requests.length, arrived, 'a replay does not validate again')
})

test('refused inputs: unknown provider, bad price, egress policy', async () => {
  const { gateway, privateUpstream } = world
  const unknown = await manage(
    gateway,
    'POST',
    '/private-endpoints',
    endpointBody(privateUpstream.url, { provider_slug: 'nope' }),
  )
  assert.equal(unknown.status, 400)
  assert.equal(unknown.body.error.metadata.reason, 'provider_not_found')
  const price = await manage(
    gateway,
    'POST',
    '/private-endpoints',
    endpointBody(privateUpstream.url, { pricing: { prompt: '-1', completion: '0.1' } }),
  )
  assert.equal(price.status, 400)
  const scheme = await manage(gateway, 'POST', '/private-endpoints', endpointBody('file:///etc/passwd'))
  assert.equal(scheme.status, 400)
  assert.match(scheme.body.error.message, /scheme/)
})
