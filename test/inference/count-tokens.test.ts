// The Anthropic SDK's messages.countTokens over a real socket: POST /messages/count_tokens answers
// `{input_tokens}` counted with the model's tokenizer, and Anthropic-shaped errors.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import Anthropic from '@anthropic-ai/sdk'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { createAnthropicMessagesDialect } from '../../src/dialects/anthropic-messages/anthropic-messages-dialect.ts'
import { countInputTokens } from '../../src/inference/tokens/count-input-tokens.ts'
import { loadTokenizer } from '../../src/inference/tokens/load-tokenizer.ts'

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

test('messages.countTokens counts the input with the tokenizer: system, messages and tools', async () => {
  const counted = await client.messages.countTokens(request)
  const decoded = createAnthropicMessagesDialect().decode({ ...request, max_tokens: 10 })
  const tokenizer = await loadTokenizer('acme/fast-1')
  assert.equal(tokenizer.encoding, 'o200k_base')
  assert.equal(counted.input_tokens, countInputTokens(decoded.call, tokenizer))
  // 'What is the capital of France? ' is 7 tokens (its trailing space joins the next repetition's "What").
  const question = 20 * 7
  assert.ok(counted.input_tokens > question && counted.input_tokens < question + 60, String(counted.input_tokens))
  // Known counts: "Hello, world!" is 4 tokens, "user" 1, and OpenAI's framing 3 per message + 3.
  const hello = await client.messages.countTokens({
    model: 'acme/fast-1',
    messages: [{ role: 'user', content: 'Hello, world!' }],
  })
  assert.equal(hello.input_tokens, 3 + 1 + 4 + 3)
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
