// Private endpoints end to end: created, validated against a real (fake) upstream, activated, then
// serving /responses through the official openai SDK at the negotiated price; broken upstreams fail
// the right checks and stay drafts; idempotency; repricing mid-traffic; disable/enable; workspaces.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import {
  createWorkspaceKey,
  endpointBody,
  generationCostNano,
  ledgerCostNano,
  manage,
  negotiated,
  waitFor,
} from './private-endpoint-kit.ts'

let gateway: TestGateway
let privateUpstream: FakeUpstream
let publicUpstream: FakeUpstream
let base: string
let home: { key: string; workspaceId: string }
let other: { key: string; workspaceId: string }
let activeId: string

before(async () => {
  privateUpstream = await startFakeUpstream({ api: 'openai-chat', apiKey: 'pe-secret' })
  publicUpstream = await startFakeUpstream({ api: 'openai-chat', apiKey: 'public-secret' })
  const yaml = [
    'egress: { allow_private_networks: true }',
    'providers:',
    `  - { slug: public, name: Public, api: openai-chat, base_url: "${publicUpstream.url}", api_key: public-secret }`,
    'models:',
    '  - slug: test/shared',
    '    endpoints:',
    '      - { provider: public, upstream_model_id: shared-1, pricing: { prompt: "0.00001", completion: "0.00002" } }',
  ].join('\n')
  gateway = await startTestGateway({ yaml })
  base = await gateway.listen()
  home = await createWorkspaceKey(gateway, null)
  other = await createWorkspaceKey(gateway, 'other-team')
})
after(async () => {
  await gateway.close()
  await privateUpstream.close()
  await publicUpstream.close()
})

const client = (key: string) => new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, maxRetries: 0 })

test('a healthy endpoint validates, activates and serves /responses at the negotiated price', async () => {
  const created = await manage(gateway, 'POST', '/private-endpoints', endpointBody(privateUpstream.url))
  assert.equal(created.status, 201, created.text)
  assert.deepEqual(Object.keys(created.body.data).sort(), [
    'created_at',
    'declared_region',
    'declared_zdr',
    'id',
    'model_name',
    'model_permaslug',
    'model_slug',
    'provider_name',
    'status',
  ])
  assert.equal(created.body.data.status, 'draft')
  const id = created.body.data.id as string
  assert.doesNotMatch(created.text, /pe-secret/)

  const draftCall = await fetch(`${base}/api/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${home.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'acme/private-1', input: 'hi' }),
  })
  assert.equal(draftCall.status, 404, 'a draft never routes')

  const early = await manage(gateway, 'POST', `/private-endpoints/${id}/activate`)
  assert.equal(early.status, 409)
  assert.equal(early.body.error.metadata.reason, 'not_validated')

  const validation = await manage(gateway, 'POST', `/private-endpoints/${id}/validate`, {
    workspace_id: home.workspaceId,
  })
  assert.equal(validation.status, 200, validation.text)
  assert.equal(validation.body.data.passed, true, validation.text)
  assert.deepEqual(
    validation.body.data.checks.map((check: { name: string; passed: boolean }) => [check.name, check.passed]),
    [
      ['auth_ok', true],
      ['model_found', true],
      ['completion_ok', true],
      ['stream_ok', true],
      ['usage_present', true],
    ],
  )
  assert.equal(privateUpstream.requests.at(-1)?.headers.authorization, 'Bearer pe-secret')

  const activated = await manage(gateway, 'POST', `/private-endpoints/${id}/activate`)
  assert.equal(activated.status, 200, activated.text)
  assert.equal(activated.body.data.status, 'active')
  activeId = id

  const full = await manage(gateway, 'GET', `/private-endpoints/${id}`)
  assert.deepEqual(full.body.data, {
    id,
    status: 'active',
    model_permaslug: 'acme/private-1',
    model_slug: 'acme/private-1',
    model_name: 'acme/private-1',
    provider_name: 'OpenAI-compatible (Chat Completions)',
    provider_slug: 'openai-chat',
    base_url: privateUpstream.url,
    upstream_model_id: 'acme-private-1',
    declared_zdr: true,
    declared_region: 'europe',
    pricing: negotiated,
  })
  const list = await manage(gateway, 'GET', '/private-endpoints')
  assert.deepEqual(Object.keys(list.body.data[0]).sort(), [
    'created_at',
    'id',
    'model_name',
    'model_permaslug',
    'model_slug',
    'provider_name',
    'status',
  ])

  privateUpstream.script({ type: 'completion', text: 'private hello', usage: { input_tokens: 10, output_tokens: 4 } })
  const answer = await client(home.key).responses.create({ model: 'acme/private-1', input: 'Say hello' })
  assert.equal(answer.output_text, 'private hello')
  assert.equal((privateUpstream.requests.at(-1)?.body as { model?: string } | undefined)?.model, 'acme-private-1')
  const expected = 10n * 3000n + 4n * 7000n
  assert.equal((answer.usage as unknown as { cost: number }).cost, 0.000058)
  assert.equal(await generationCostNano(gateway, answer.id), expected)
  assert.equal(await ledgerCostNano(gateway, answer.id), expected)
})

test('create with activate validates and activates in one call', async () => {
  const created = await manage(
    gateway,
    'POST',
    '/private-endpoints',
    endpointBody(privateUpstream.url, {
      model_permaslug: 'acme/one-call',
      activate: { workspace_id: home.workspaceId },
    }),
  )
  assert.equal(created.status, 201, created.text)
  assert.equal(created.body.data.endpoint.status, 'active')
  assert.equal(created.body.data.validation.passed, true)
  privateUpstream.script({ type: 'completion', text: 'one call', usage: { input_tokens: 2, output_tokens: 2 } })
  const answer = await client(home.key).responses.create({ model: 'acme/one-call', input: 'hi' })
  assert.equal(answer.output_text, 'one call')
})

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
  const list = await manage(gateway, 'GET', '/private-endpoints')
  assert.equal(
    list.body.data.filter((entry: { model_permaslug: string }) => entry.model_permaslug === 'acme/idempotent').length,
    1,
  )
})

test('Idempotency-Key with activate: a replay of a failed activation answers the kept draft and its validation', async () => {
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

test('a pricing change applies to the next request, never to the one in flight', async () => {
  let release!: () => void
  const hold = new Promise<void>((resolve) => (release = resolve))
  privateUpstream.script({
    type: 'completion',
    text: 'held answer',
    usage: { input_tokens: 10, output_tokens: 4 },
    holdAfterFrames: 2,
    hold,
  })
  const arrived = privateUpstream.requests.length
  const inFlight = client(home.key).responses.create({ model: 'acme/private-1', input: 'long one', stream: true })
  await waitFor(() => privateUpstream.requests.length > arrived, 'the held call to reach the upstream')
  const repriced = await manage(gateway, 'PUT', `/private-endpoints/${activeId}/pricing`, {
    pricing: { prompt: '0.00001', completion: '0.00002' },
  })
  assert.equal(repriced.status, 200, repriced.text)
  assert.deepEqual(repriced.body.data.pricing, { prompt: '0.00001', completion: '0.00002' })
  assert.equal(repriced.body.data.status, 'active')
  release()
  let generationId = ''
  for await (const event of await inFlight) if (event.type === 'response.completed') generationId = event.response.id
  assert.equal(await generationCostNano(gateway, generationId), 10n * 3000n + 4n * 7000n)

  privateUpstream.script({ type: 'completion', text: 'after', usage: { input_tokens: 10, output_tokens: 4 } })
  const next = await client(home.key).responses.create({ model: 'acme/private-1', input: 'next' })
  assert.equal(await generationCostNano(gateway, next.id), 10n * 10_000n + 4n * 20_000n)
})

test('disable stops routing, enable resumes it; PATCH refuses active endpoints', async () => {
  const disabled = await manage(gateway, 'POST', `/private-endpoints/${activeId}/disable`)
  assert.equal(disabled.status, 200, disabled.text)
  assert.equal(disabled.body.data.status, 'disabled')
  const arrived = privateUpstream.requests.length
  await assert.rejects(
    client(home.key).responses.create({ model: 'acme/private-1', input: 'hi' }),
    (error: { status?: number }) => error.status === 404,
  )
  assert.equal(privateUpstream.requests.length, arrived)
  const enabled = await manage(gateway, 'POST', `/private-endpoints/${activeId}/enable`)
  assert.equal(enabled.body.data.status, 'active')
  privateUpstream.script({ type: 'completion', text: 'back again' })
  assert.equal(
    (await client(home.key).responses.create({ model: 'acme/private-1', input: 'hi' })).output_text,
    'back again',
  )
  const patch = await manage(gateway, 'PATCH', `/private-endpoints/${activeId}`, { upstream_model_id: 'other' })
  assert.equal(patch.status, 409)
})

test('an endpoint never receives traffic from another workspace', async () => {
  const cheaper = await manage(
    gateway,
    'POST',
    '/private-endpoints',
    endpointBody(privateUpstream.url, {
      model_permaslug: 'test/shared',
      upstream_model_id: 'shared-private',
      activate: { workspace_id: home.workspaceId },
    }),
  )
  assert.equal(cheaper.status, 201, cheaper.text)
  assert.equal(cheaper.body.data.endpoint.model_name, 'test/shared')
  const arrived = privateUpstream.requests.length
  await assert.rejects(
    client(other.key).responses.create({ model: 'acme/private-1', input: 'hi' }),
    (error: { status?: number }) => error.status === 404,
  )
  publicUpstream.script({ type: 'completion', text: 'public answer' })
  assert.equal(
    (await client(other.key).responses.create({ model: 'test/shared', input: 'hi' })).output_text,
    'public answer',
  )
  assert.equal(privateUpstream.requests.length, arrived, 'the other workspace never reached the private endpoint')
  privateUpstream.script({ type: 'completion', text: 'private answer' })
  assert.equal(
    (await client(home.key).responses.create({ model: 'test/shared', input: 'hi' })).output_text,
    'private answer',
  )
})

test('draft edits clear the validation; delete honours draft_only', async () => {
  const created = await manage(
    gateway,
    'POST',
    '/private-endpoints',
    endpointBody(privateUpstream.url, { model_permaslug: 'acme/editable' }),
  )
  const id = created.body.data.id as string
  assert.equal(
    (await manage(gateway, 'POST', `/private-endpoints/${id}/validate`, { workspace_id: home.workspaceId })).body.data
      .passed,
    true,
  )
  const patched = await manage(gateway, 'PATCH', `/private-endpoints/${id}`, { declared_region: 'us' })
  assert.equal(patched.status, 200, patched.text)
  assert.equal(patched.body.data.declared_region, 'us')
  const activate = await manage(gateway, 'POST', `/private-endpoints/${id}/activate`)
  assert.equal(activate.status, 409)
  assert.equal(activate.body.error.metadata.reason, 'not_validated')
  assert.equal((await manage(gateway, 'DELETE', `/private-endpoints/${activeId}?draft_only=true`)).status, 409)
  const removed = await manage(gateway, 'DELETE', `/private-endpoints/${id}?draft_only=true`)
  assert.deepEqual(removed.body, { data: { id } })
  assert.equal((await manage(gateway, 'GET', `/private-endpoints/${id}`)).status, 404)
})

test('refused inputs: unknown provider, bad price, egress policy', async () => {
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
