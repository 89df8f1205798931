// An inference request's lists are bounded (the `models` fallback list at 32, messages, tools, stop
// sequences, embeddings inputs): past a bound the answer is a 400 in the route family's error shape naming
// the field and the bound, reached without reading the list's items; at the bound the request is served.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { mintKey } from '../interns/intern-test-kit.ts'

let gateway: TestGateway
let upstream: FakeUpstream
let baseUrl: string
let key: string

before(async () => {
  upstream = await startFakeUpstream({ api: 'openai-chat', apiKey: 'upstream-key' })
  gateway = await startTestGateway({
    yaml: [
      'egress: { allow_private_networks: true }',
      'providers:',
      `  - { slug: fake, api: openai-chat, base_url: "${upstream.url}", api_key: upstream-key }`,
      'models:',
      '  - slug: test/chat',
      '    endpoints: [{ provider: fake, upstream_model_id: fake-1, pricing: { prompt: "0", completion: "0" } }]',
      '  - slug: test/embed',
      '    kind: embedding',
      '    endpoints: [{ provider: fake, upstream_model_id: fake-embed, pricing: { prompt: "0", completion: "0" } }]',
      '',
    ].join('\n'),
  })
  baseUrl = await gateway.listen()
  key = await mintKey(gateway, 'inference', gateway.gateway.bootstrap.defaultWorkspaceId)
})
after(async () => {
  await gateway.close()
  await upstream.close()
})

interface Answer {
  readonly type?: string
  readonly error: { readonly type?: string; readonly code?: number; readonly message: string }
  readonly data?: readonly unknown[]
}

async function post(path: string, body: unknown): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, json: (await response.json()) as Answer }
}

const fallbacks = (count: number): string[] => Array.from({ length: count }, (_, index) => `test/missing-${index}`)
const routes = {
  '/chat/completions': (extra: object) => ({ messages: [{ role: 'user', content: 'hi' }], ...extra }),
  '/responses': (extra: object) => ({ input: 'hi', ...extra }),
  '/messages': (extra: object) => ({ max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], ...extra }),
}

function errorMessage(path: string, json: Answer): string {
  if (path === '/messages') {
    assert.equal(json.type, 'error')
    assert.equal(json.error.type, 'invalid_request_error')
  } else assert.equal(json.error.code, 400)
  return String(json.error.message)
}

test('models: 32 fallbacks are served, 33 are a 400 naming the bound, on chat, responses and messages', async () => {
  for (const [path, body] of Object.entries(routes)) {
    const served = await post(path, body({ model: 'test/chat', models: fallbacks(32) }))
    assert.equal(served.status, 200, `${path}: ${JSON.stringify(served.json)}`)
    const refused = await post(path, body({ model: 'test/chat', models: fallbacks(33) }))
    assert.equal(refused.status, 400, path)
    assert.equal(errorMessage(path, refused.json), 'models: must not have more than 32 items', path)
  }
})

test('200,000 fallbacks are refused by their count alone, with the other bad fields unread', async () => {
  const models = fallbacks(200_000)
  for (const [path, body] of Object.entries(routes)) {
    const refused = await post(path, body({ model: 'test/chat', models, temperature: 'hot' }))
    assert.equal(refused.status, 400, path)
    assert.equal(errorMessage(path, refused.json), 'models: must not have more than 32 items', path)
  }
})

test('messages, tools and stop sequences past their bounds are a 400 naming each list', async () => {
  const messages = Array.from({ length: 100_001 }, () => ({ role: 'user', content: 'x' }))
  const chat = await post('/chat/completions', {
    model: 'test/chat',
    messages,
    stop: Array.from({ length: 257 }, () => 'x'),
    tools: Array.from({ length: 1025 }, (_, index) => ({ type: 'function', function: { name: `f${index}` } })),
  })
  assert.equal(chat.status, 400)
  assert.equal(
    errorMessage('/chat/completions', chat.json),
    'messages: must not have more than 100000 items; stop: must not have more than 256 items; tools: must not have more than 1024 items',
  )
  const responses = await post('/responses', { model: 'test/chat', input: messages })
  assert.equal(errorMessage('/responses', responses.json), 'input: must not have more than 100000 items')
  const anthropic = await post('/messages', {
    model: 'test/chat',
    max_tokens: 5,
    messages: [{ role: 'user', content: 'x' }],
    stop_sequences: Array.from({ length: 257 }, () => 'x'),
  })
  assert.equal(errorMessage('/messages', anthropic.json), 'stop_sequences: must not have more than 256 items')
})

test('embeddings: 2048 inputs are served, 2049 strings or token lists are a 400 naming the bound', async () => {
  const served = await post('/embeddings', { model: 'test/embed', input: Array.from({ length: 2048 }, () => 'x') })
  assert.equal(served.status, 200, JSON.stringify(served.json))
  assert.equal(served.json.data?.length, 2048)
  for (const item of ['x', [1, 2]]) {
    const refused = await post('/embeddings', { model: 'test/embed', input: Array.from({ length: 2049 }, () => item) })
    assert.equal(refused.status, 400)
    assert.equal(errorMessage('/embeddings', refused.json), 'input: must not have more than 2048 items')
  }
})
