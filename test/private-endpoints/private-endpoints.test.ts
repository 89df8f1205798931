// Private endpoints end to end: created, validated against a real (fake) upstream, activated, then
// serving /responses through the official openai SDK at the negotiated price; repricing mid-traffic;
// disable/enable; workspaces; draft edits and delete. Refused and broken endpoints are in
// private-endpoint-refusals.test.ts.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import {
  endpointBody,
  generationCostNano,
  ledgerCostNano,
  manage,
  negotiated,
  waitFor,
  type EndpointList,
} from './private-endpoint-kit.ts'
import { startEndpointWorld, type EndpointWorld } from './private-endpoint-world.ts'

let world: EndpointWorld
/** The endpoint the first test activates; the later tests reprice, disable and delete it. */
let activeId: string

before(async () => {
  world = await startEndpointWorld()
})
after(() => world.close())

test('a healthy endpoint validates, activates and serves /responses at the negotiated price', async () => {
  const { gateway, privateUpstream, base, home, client } = world
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
  const list = await manage<EndpointList>(gateway, 'GET', '/private-endpoints')
  assert.deepEqual(Object.keys(list.body.data[0]!).sort(), [
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
  const { gateway, privateUpstream, home, client } = world
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

test('a pricing change applies to the next request, never to the one in flight', async () => {
  const { gateway, privateUpstream, home, client } = world
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
  const { gateway, privateUpstream, home, client } = world
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
  const { gateway, privateUpstream, publicUpstream, home, other, client } = world
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
  const { gateway, privateUpstream, home } = world
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
