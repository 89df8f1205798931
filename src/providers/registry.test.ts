import { test } from 'node:test'
import assert from 'node:assert/strict'
import { providerApis } from '../domain/inference/provider-api.ts'
import { providerAdapters } from './registry.ts'

test('every provider API has an adapter that names its own API', () => {
  assert.deepEqual(Object.keys(providerAdapters).sort(), [...providerApis].sort())
  for (const api of providerApis) assert.equal(providerAdapters[api].api, api)
})

test('an OpenAI-compatible server is the openai-chat adapter: paths are relative to any base_url', () => {
  const request = providerAdapters['openai-chat'].buildRequest(
    { model: 'llama-3.1-8b', stream: false, messages: [{ role: 'user', content: 'hi' }] },
    { apiKey: 'k' },
  )
  assert.equal(request.path, '/chat/completions')
  assert.equal(new URL(`http://127.0.0.1:9000/v1${request.path}`).pathname, '/v1/chat/completions')
})

test('each adapter appends the documented path to its base_url', () => {
  const call = { model: 'm', stream: false, messages: [{ role: 'user' as const, content: 'hi' }] }
  assert.equal(providerAdapters['openai-responses'].buildRequest(call, {}).path, '/responses')
  assert.equal(providerAdapters.anthropic.buildRequest(call, {}).path, '/v1/messages')
  assert.equal(providerAdapters.gemini.buildRequest(call, {}).path, '/v1beta/models/m:generateContent')
  assert.equal(
    providerAdapters.gemini.buildRequest({ ...call, stream: true }, {}).path,
    '/v1beta/models/m:streamGenerateContent?alt=sse',
  )
})
