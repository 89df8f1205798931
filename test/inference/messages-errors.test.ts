// The Anthropic SDK over a real socket reads every /messages failure in Anthropic's shape, with `code`
// (the HTTP status) inside `error` too: a bad key (401), an unknown route under /messages, an unknown
// model, a refused body and an upstream failure. Other route families keep the spec's envelope.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import Anthropic from '@anthropic-ai/sdk'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

let upstream: FakeUpstream
let gateway: TestGateway
let base: string
let key: string

before(async () => {
  upstream = await startFakeUpstream({ api: 'anthropic', apiKey: 'upstream-secret' })
  gateway = await startTestGateway({
    yaml:
      `providers:\n  - { slug: claude, api: anthropic, base_url: "${upstream.url}", api_key: upstream-secret }\n` +
      'models:\n  - slug: test/claude\n    endpoints:\n' +
      '      - { provider: claude, upstream_model_id: up, max_output_tokens: 100, pricing: { prompt: "0.000001", completion: "0.000002" } }\n',
  })
  base = await gateway.listen()
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'messages errors' },
  })
  key = (created.json() as { key: string }).key
})
after(async () => {
  await gateway.close()
  await upstream.close()
})

const client = (apiKey = key) => new Anthropic({ apiKey, baseURL: `${base}/api`, maxRetries: 0 })
const request = { model: 'test/claude', max_tokens: 10, messages: [{ role: 'user' as const, content: 'Hi' }] }

/** The SDK threw its error class for `status` and the body was Anthropic's, with code = status. */
function anthropicError(status: number, type: string, message: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof Anthropic.APIError, String(error))
    assert.equal(error.status, status)
    const body = error.error as { type?: string; error?: { type?: string; message?: string; code?: number } }
    assert.equal(body.type, 'error')
    assert.equal(body.error?.type, type)
    assert.equal(body.error?.code, status)
    assert.match(body.error?.message ?? '', message)
    return true
  }
}

test('a bad key on /messages and /messages/count_tokens is an Anthropic authentication_error', async () => {
  await assert.rejects(
    client('sk-sy-v1-not-a-key').messages.create(request),
    anthropicError(401, 'authentication_error', /./),
  )
  await assert.rejects(
    client('sk-sy-v1-not-a-key').messages.countTokens({ model: 'test/claude', messages: request.messages }),
    anthropicError(401, 'authentication_error', /./),
  )
})

test('an unknown route under /messages is an Anthropic not_found_error', async () => {
  await assert.rejects(
    client().messages.batches.create({ requests: [{ custom_id: 'a', params: request }] }),
    anthropicError(404, 'not_found_error', /No route for POST \/api\/v1\/messages\/batches/),
  )
})

test('an unknown model and a refused body are Anthropic errors', async () => {
  await assert.rejects(
    client().messages.create({ ...request, model: 'nobody/nothing' }),
    anthropicError(404, 'not_found_error', /nobody\/nothing/),
  )
  await assert.rejects(
    client().messages.create({ ...request, max_tokens: 0 }),
    anthropicError(400, 'invalid_request_error', /max_tokens/),
  )
})

test('an upstream failure is an Anthropic api_error carrying the status it is answered with', async () => {
  upstream.script({ type: 'error', status: 500, message: 'upstream exploded' })
  await assert.rejects(client().messages.create(request), (error: unknown) => {
    assert.ok(error instanceof Anthropic.APIError)
    assert.ok(error.status !== undefined && error.status >= 500, String(error.status))
    const body = error.error as { type?: string; error?: { type?: string; code?: number } }
    assert.equal(body.type, 'error')
    assert.equal(body.error?.code, error.status)
    return true
  })
})

test('other route families keep the envelope for the same failures', async () => {
  const chat = await fetch(`${base}/api/v1/chat/completions`, { method: 'POST', body: '{}' })
  assert.equal(chat.status, 401)
  const body = (await chat.json()) as { error: { code: number }; type?: string }
  assert.equal(body.error.code, 401)
  assert.equal(body.type, undefined)
})
