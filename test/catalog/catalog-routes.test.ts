import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { OpenRouter } from '@openrouter/sdk'
import OpenAI from 'openai'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

let gateway: TestGateway
let base: string

before(async () => {
  gateway = await startTestGateway({
    yaml:
      'providers:\n  - { slug: acme, name: Acme AI, api: openai-chat, base_url: "http://127.0.0.1:9/v1" }\n' +
      'models:\n  - slug: acme/fast-1\n    name: "Acme: Fast 1"\n    context_length: 64000\n    endpoints:\n' +
      '      - { provider: acme, upstream_model_id: fast-1, max_output_tokens: 4096, pricing: { prompt: "0.0000002", completion: "0.0000008" }, supported_parameters: [temperature, tools] }\n' +
      '  - slug: acme/embed-1\n    kind: embedding\n    endpoints:\n      - { provider: acme, upstream_model_id: e1, pricing: { prompt: "0.00000002", completion: "0" } }\n',
  })
  base = await gateway.listen()
})
after(() => gateway.close())

test('GET /models lists text models in OpenRouter shape; embeddings are listed separately', async () => {
  const response = await gateway.inject({ method: 'GET', url: '/api/v1/models', headers: bearer(gateway.adminKey) })
  assert.equal(response.statusCode, 200)
  const body = response.json() as { data: { id: string; pricing: { prompt: string }; context_length: number }[] }
  assert.deepEqual(
    body.data.map((model) => model.id),
    ['acme/fast-1'],
  )
  assert.equal(body.data[0]?.pricing.prompt, '0.0000002')
  assert.equal(body.data[0]?.context_length, 64000)
  const embeddings = (
    await gateway.inject({ method: 'GET', url: '/api/v1/embeddings/models', headers: bearer(gateway.adminKey) })
  ).json() as { data: { id: string }[] }
  assert.deepEqual(
    embeddings.data.map((model) => model.id),
    ['acme/embed-1'],
  )
  const filtered = (
    await gateway.inject({
      method: 'GET',
      url: '/api/v1/models?supported_parameters=tools,logprobs',
      headers: bearer(gateway.adminKey),
    })
  ).json() as { data: unknown[] }
  assert.equal(filtered.data.length, 0)
})

test('catalog routes need a key', async () => {
  assert.equal((await gateway.inject({ method: 'GET', url: '/api/v1/models' })).statusCode, 401)
})

test('the official SDK accepts models, endpoints and providers', async () => {
  const client = new OpenRouter({ apiKey: gateway.adminKey, serverURL: `${base}/api/v1` })
  const models = await client.models.list()
  assert.equal(models.result.data[0]?.id, 'acme/fast-1')
  assert.equal(models.result.totalCount, 1)
  assert.equal(models.result.data[0]?.topProvider.maxCompletionTokens, 4096)
  const endpoints = await client.endpoints.list({ author: 'acme', slug: 'fast-1' })
  assert.equal(endpoints.data.endpoints[0]?.tag, 'acme')
  assert.equal(endpoints.data.endpoints[0]?.pricing.completion, '0.0000008')
  const providers = await client.providers.list()
  assert.deepEqual(
    providers.data.map((provider) => provider.slug),
    ['acme'],
  )
  await assert.rejects(client.endpoints.list({ author: 'acme', slug: 'missing' }))
})

test('openai models.retrieve reads a model by its encoded slug, in the shape the list uses', async () => {
  const client = new OpenAI({ apiKey: gateway.adminKey, baseURL: `${base}/api/v1`, maxRetries: 0 })
  const retrieved = await client.models.retrieve('acme/fast-1')
  assert.equal(retrieved.id, 'acme/fast-1')
  const listed = (
    await gateway.inject({ method: 'GET', url: '/api/v1/models', headers: bearer(gateway.adminKey) })
  ).json() as { data: unknown[] }
  assert.deepEqual(retrieved, listed.data[0])
  assert.equal((await client.models.retrieve('acme/embed-1')).id, 'acme/embed-1')
  await assert.rejects(
    client.models.retrieve('acme/missing'),
    (error: unknown) => error instanceof OpenAI.NotFoundError && error.message.includes('"acme/missing"'),
  )
})

test('@openrouter/sdk models.get and models.count', async () => {
  const client = new OpenRouter({ apiKey: gateway.adminKey, serverURL: `${base}/api/v1` })
  const model = await client.models.get({ author: 'acme', slug: 'fast-1' })
  assert.equal(model.data.id, 'acme/fast-1')
  assert.equal(model.data.topProvider.maxCompletionTokens, 4096)
  await assert.rejects(
    client.models.get({ author: 'acme', slug: 'missing' }),
    (error: { statusCode?: number }) => error.statusCode === 404,
  )
  assert.equal((await client.models.count()).data.count, 1)
  assert.equal((await client.models.count({ outputModalities: 'all' })).data.count, 2)
  assert.equal((await client.models.count({ outputModalities: 'embeddings,image' })).data.count, 1)
  assert.equal((await client.models.count({ outputModalities: 'image' })).data.count, 0)
})
