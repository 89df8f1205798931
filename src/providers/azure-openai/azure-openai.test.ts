import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { AuthorizerDeps, ProviderSettings } from '../provider-adapter.ts'
import { adapterFor } from '../registry.ts'
import { embeddingsAdapterFor } from '../registry.ts'
import { createAzureAuthorizer } from './authorizer.ts'

const call = { model: 'gpt-4o-prod', stream: true, messages: [{ role: 'user' as const, content: 'hi' }] }
const settings = (options: Record<string, string>): ProviderSettings => ({
  slug: 'azure',
  apiKey: 'azure-key',
  baseUrl: 'https://res.openai.azure.com',
  options,
})

test('with api_version: deployment URLs for chat and embeddings, /openai/responses for the Responses wire', () => {
  const dated = settings({ api_version: '2024-10-21' })
  const chat = adapterFor('azure-openai', call.model, dated).buildRequest(call, dated)
  assert.equal(chat.path, '/openai/deployments/gpt-4o-prod/chat/completions?api-version=2024-10-21')
  assert.equal(chat.body.stream, true)
  const responsesSettings = settings({ api_version: '2025-04-01-preview', wire: 'responses' })
  const responses = adapterFor('azure-openai', call.model, responsesSettings).buildRequest(call, responsesSettings)
  assert.equal(responses.path, '/openai/responses?api-version=2025-04-01-preview')
  assert.equal(responses.body.model, 'gpt-4o-prod')
  const embeddings = embeddingsAdapterFor('azure-openai')!.buildRequest(
    { model: 'embed-small', inputs: [{ type: 'text', text: 'x' }] },
    dated,
  )
  assert.equal(embeddings.path, '/openai/deployments/embed-small/embeddings?api-version=2024-10-21')
})

test('without api_version: the v1 form, the model in the body', () => {
  const v1 = settings({})
  assert.equal(adapterFor('azure-openai', 'm', v1).buildRequest(call, v1).path, '/openai/v1/chat/completions')
  const responses = settings({ wire: 'responses' })
  assert.equal(adapterFor('azure-openai', 'm', responses).buildRequest(call, responses).path, '/openai/v1/responses')
})

test('Entra ID: one client-credentials token, reused until five minutes before it expires', async () => {
  let clock = 1_000_000
  const posts: { url: string; body: string }[] = []
  const deps: AuthorizerDeps = {
    now: () => clock,
    post: async (url, _headers, body) => {
      posts.push({ url, body })
      return { status: 200, body: JSON.stringify({ access_token: `tok-${posts.length}`, expires_in: 3600 }) }
    },
    readFile: () => Promise.reject(new Error('unused')),
  }
  const authorizer = createAzureAuthorizer(
    settings({ tenant_id: 'tenant-1', client_id: 'app', client_secret: 's3cret' }),
    deps,
  )
  const request = { url: new URL('https://res.openai.azure.com/openai/v1/chat/completions'), headers: {}, body: '{}' }
  const [first, concurrent] = await Promise.all([authorizer.authorize!(request), authorizer.authorize!(request)])
  assert.deepEqual(first, { authorization: 'Bearer tok-1' })
  assert.deepEqual(concurrent, first)
  assert.equal(posts.length, 1)
  assert.equal(posts[0]!.url, 'https://login.microsoftonline.com/tenant-1/oauth2/v2.0/token')
  const form = new URLSearchParams(posts[0]!.body)
  assert.equal(form.get('grant_type'), 'client_credentials')
  assert.equal(form.get('scope'), 'https://cognitiveservices.azure.com/.default')
  clock += 3600_000 - 5 * 60_000 - 1
  assert.deepEqual(await authorizer.authorize!(request), { authorization: 'Bearer tok-1' })
  clock += 1
  assert.deepEqual(await authorizer.authorize!(request), { authorization: 'Bearer tok-2' })
})

test('a refused token request fails the authorization with the endpoint reason, and is not cached', async () => {
  let answers = 0
  const deps: AuthorizerDeps = {
    now: () => 0,
    post: async () => {
      answers += 1
      return answers === 1
        ? { status: 401, body: JSON.stringify({ error: 'invalid_client', error_description: 'bad secret' }) }
        : { status: 200, body: JSON.stringify({ access_token: 'ok', expires_in: 3600 }) }
    },
    readFile: () => Promise.reject(new Error('unused')),
  }
  const authorizer = createAzureAuthorizer(settings({ tenant_id: 't', client_id: 'c', client_secret: 'x' }), deps)
  const request = { url: new URL('https://res.openai.azure.com/openai/v1/chat/completions'), headers: {}, body: '{}' }
  await assert.rejects(authorizer.authorize!(request), /HTTP 401 \(invalid_client: bad secret\)/)
  assert.deepEqual(await authorizer.authorize!(request), { authorization: 'Bearer ok' })
})

test('Azure error codes map through its table: throttling 429 with retry-after, content filter 400, bad key', () => {
  const adapter = adapterFor('azure-openai', 'm', settings({}))
  const throttled = adapter.classifyError(429, '{"error":{"code":"429","message":"Rate limit"}}', {
    'retry-after': '12',
  })
  assert.deepEqual(throttled, { kind: 'rate_limited', message: 'Azure OpenAI: Rate limit', retryAfterSeconds: 12 })
  const throttledWithoutHint = adapter.classifyError(429, '{"error":{"code":"RateLimitReached","message":"Slow"}}', {})
  assert.deepEqual(throttledWithoutHint, { kind: 'rate_limited', message: 'Azure OpenAI: Slow', retryAfterSeconds: 1 })
  assert.equal(adapter.classifyError(429, '', { 'retry-after-ms': '2500' }).retryAfterSeconds, 3)
  assert.equal(
    adapter.classifyError(400, '{"error":{"code":"content_filter","message":"x"}}', {}).kind,
    'invalid_request',
  )
  assert.deepEqual(adapter.classifyError(401, '{"error":{"code":"401","message":"Access denied"}}', {}), {
    kind: 'upstream_error',
    message: "Azure OpenAI rejected the gateway's credentials (HTTP 401)",
  })
})
