// The Anthropic SDK's messages.countTokens over a real socket: POST /messages/count_tokens answers
// `{input_tokens}` by the estimator every call reserves its input with, and Anthropic-shaped errors.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import Anthropic from '@anthropic-ai/sdk'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { createAnthropicMessagesDialect } from '../../src/dialects/anthropic-messages/anthropic-messages-dialect.ts'
import { estimateInputTokens } from '../../src/inference/pricing/estimate-worst-case.ts'

let gateway: TestGateway
let client: Anthropic

before(async () => {
  gateway = await startTestGateway({
    yaml:
      'providers:\n  - { slug: acme, name: Acme AI, api: anthropic, base_url: "http://127.0.0.1:9" }\n' +
      'models:\n  - slug: acme/fast-1\n    endpoints:\n' +
      '      - { provider: acme, upstream_model_id: fast-1, pricing: { prompt: "0.000001", completion: "0.000002" } }\n' +
      '  - slug: acme/embed-1\n    kind: embedding\n    endpoints:\n' +
      '      - { provider: acme, upstream_model_id: e1, pricing: { prompt: "0.00000002", completion: "0" } }\n',
  })
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'count tokens' },
  })
  assert.equal(created.statusCode, 201, created.body)
  const key = (created.json() as { key: string }).key
  client = new Anthropic({ apiKey: key, baseURL: `${await gateway.listen()}/api`, maxRetries: 0 })
})
after(() => gateway.close())

const request = {
  model: 'acme/fast-1',
  system: 'You answer in one word.',
  messages: [{ role: 'user' as const, content: 'What is the capital of France? '.repeat(20) }],
  tools: [
    {
      name: 'get_weather',
      description: 'The weather in a city',
      input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } },
    },
  ],
}

test('messages.countTokens answers the input estimate a /messages call with the same input reserves', async () => {
  const counted = await client.messages.countTokens(request)
  const decoded = createAnthropicMessagesDialect().decode({ ...request, max_tokens: 10 })
  assert.equal(counted.input_tokens, estimateInputTokens(decoded.call))
  const shorter = await client.messages.countTokens({
    model: 'acme/fast-1',
    messages: [{ role: 'user', content: 'Hi' }],
  })
  assert.ok(shorter.input_tokens > 0 && shorter.input_tokens < counted.input_tokens / 4, String(shorter.input_tokens))
})

test('messages.countTokens: an unknown model is a 404, an embedding model or a bad body a 400, Anthropic-shaped', async () => {
  await assert.rejects(
    client.messages.countTokens({ ...request, model: 'acme/missing' }),
    (error: unknown) =>
      error instanceof Anthropic.NotFoundError &&
      error.message.includes('acme/missing') &&
      (error.error as { error?: { type?: string } }).error?.type === 'not_found_error',
  )
  await assert.rejects(
    client.messages.countTokens({ ...request, model: 'acme/embed-1' }),
    (error: unknown) => error instanceof Anthropic.BadRequestError && error.message.includes('embedding model'),
  )
  await assert.rejects(
    client.messages.countTokens({ model: 'acme/fast-1', messages: [] }),
    (error: unknown) =>
      error instanceof Anthropic.BadRequestError &&
      error.message.includes('messages') &&
      (error.error as { error?: { type?: string } }).error?.type === 'invalid_request_error',
  )
})

test('messages.countTokens needs a key', async () => {
  const anonymous = new Anthropic({ apiKey: 'sk-sy-v1-not-a-key', baseURL: client.baseURL, maxRetries: 0 })
  await assert.rejects(
    anonymous.messages.countTokens(request),
    (error: unknown) => error instanceof Anthropic.AuthenticationError,
  )
})
