import { test } from 'node:test'
import assert from 'node:assert/strict'
import { providerApis } from '../domain/inference/provider-api.ts'
import { zdrFamilies } from '../domain/inference/zdr-family.ts'
import type { AuthorizerDeps, ProviderSettings } from './provider-adapter.ts'
import { adapterFor, providerDescriptor } from './registry.ts'

const settings = (apiKey: string | null): ProviderSettings => ({ slug: 'p', apiKey, baseUrl: 'https://example.test' })
const noIo: AuthorizerDeps = {
  now: () => 0,
  post: () => Promise.reject(new Error('no I/O expected')),
  readFile: () => Promise.reject(new Error('no I/O expected')),
}

test('every provider API has an adapter that names its own API and a framing', () => {
  for (const api of providerApis) {
    const adapter = adapterFor(api, 'm', settings('k'))
    assert.equal(adapter.api, api)
    assert.ok(['sse', 'aws-event-stream', 'ndjson', 'json-array'].includes(adapter.framing))
  }
})

test('an OpenAI-compatible server is the openai-chat adapter: paths are relative to any base_url', () => {
  const request = adapterFor('openai-chat', 'llama-3.1-8b', settings('k')).buildRequest(
    { model: 'llama-3.1-8b', stream: false, messages: [{ role: 'user', content: 'hi' }] },
    settings('k'),
  )
  assert.equal(request.path, '/chat/completions')
  assert.equal(new URL(`http://127.0.0.1:9000/v1${request.path}`).pathname, '/v1/chat/completions')
})

test('each adapter appends the documented path to its base_url', () => {
  const call = { model: 'm', stream: false, messages: [{ role: 'user' as const, content: 'hi' }] }
  const path = (api: 'openai-responses' | 'anthropic' | 'gemini', stream = false) =>
    adapterFor(api, 'm', settings(null)).buildRequest({ ...call, stream }, settings(null)).path
  assert.equal(path('openai-responses'), '/responses')
  assert.equal(path('anthropic'), '/v1/messages')
  assert.equal(path('gemini'), '/v1beta/models/m:generateContent')
  assert.equal(path('gemini', true), '/v1beta/models/m:streamGenerateContent?alt=sse')
})

test('a static key is one header, added with no await; without a key nothing is added', () => {
  const expected = {
    'openai-chat': { authorization: 'Bearer k' },
    'openai-responses': { authorization: 'Bearer k' },
    anthropic: { 'x-api-key': 'k' },
    gemini: { 'x-goog-api-key': 'k' },
    'azure-openai': { 'api-key': 'k' },
  } as const
  for (const [api, headers] of Object.entries(expected) as [keyof typeof expected, object][]) {
    const adapter = adapterFor(api, 'm', settings('k'))
    const keyed = adapter.createAuthorizer(settings('k'), noIo)
    assert.deepEqual(keyed.headers, headers, api)
    assert.equal(keyed.authorize, undefined, api)
    assert.deepEqual(adapter.createAuthorizer(settings(null), noIo).headers, {}, api)
  }
})

test('every provider API has a descriptor with each fact the gateway reads: family name, embeddings, ZDR family, doctor route', () => {
  const names = new Set<string>()
  for (const api of providerApis) {
    const descriptor = providerDescriptor(api)
    assert.equal(typeof descriptor.familyName, 'string', api)
    assert.ok(descriptor.familyName.trim() !== '', api)
    names.add(descriptor.familyName)
    assert.ok((zdrFamilies as readonly unknown[]).includes(descriptor.zdrFamily), `${api}: ${descriptor.zdrFamily}`)
    assert.equal(typeof descriptor.listModelsPath, 'function', api)
    assert.match(descriptor.listModelsPath(settings('k')), /^\//, api)
    assert.ok(['object', 'function'].includes(typeof descriptor.adapter), api)
    assert.ok('embeddings' in descriptor, `${api} says whether it has embeddings`)
    if (descriptor.embeddings !== null) assert.equal(typeof descriptor.embeddings.buildRequest, 'function', api)
  }
  assert.equal(names.size, providerApis.length, 'each API family has its own name')
})

test('the descriptors carry the facts the guardrails, private endpoints and doctor used', () => {
  const facts = (api: (typeof providerApis)[number], options?: Record<string, string>) => {
    const descriptor = providerDescriptor(api)
    const path = descriptor.listModelsPath({ ...settings('k'), ...(options === undefined ? {} : { options }) })
    return [descriptor.familyName, descriptor.zdrFamily, path]
  }
  assert.deepEqual(facts('openai-chat'), ['OpenAI-compatible (Chat Completions)', 'other', '/models'])
  assert.deepEqual(facts('openai-responses'), ['OpenAI-compatible (Responses)', 'openai', '/models'])
  assert.deepEqual(facts('anthropic'), ['Anthropic-compatible (Messages)', 'anthropic', '/v1/models'])
  assert.deepEqual(facts('gemini'), ['Gemini-compatible', 'google', '/v1beta/models'])
  assert.deepEqual(facts('azure-openai'), ['Azure OpenAI', 'openai', '/openai/v1/models'])
  assert.equal(facts('azure-openai', { api_version: '2024-10-21' })[2], '/openai/models?api-version=2024-10-21')
  assert.deepEqual(facts('bedrock'), ['Amazon Bedrock (Converse)', 'other', '/'])
  assert.deepEqual(facts('vertex', { project: 'p 1', location: 'europe-west4' }), [
    'Google Vertex AI',
    'google',
    '/v1/projects/p%201/locations/europe-west4/models',
  ])
  assert.equal(facts('vertex', { project: 'p' })[2], '/v1/projects/p/locations/global/models')
  const withEmbeddings = providerApis.filter((api) => providerDescriptor(api).embeddings !== null)
  assert.deepEqual(withEmbeddings, ['openai-chat', 'openai-responses', 'gemini', 'azure-openai', 'vertex'])
})
