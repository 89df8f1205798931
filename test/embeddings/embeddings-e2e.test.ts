// POST /api/v1/embeddings end to end: the official SDKs over a real socket, OpenAI-compatible and
// Gemini upstreams, fallbacks, errors, exact billing and the generation record.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import OpenAI from 'openai'
import { OpenRouter } from '@openrouter/sdk'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'

let primary: FakeUpstream
let backup: FakeUpstream
let gemini: FakeUpstream
let gateway: TestGateway
let base: string
let key: string
let keyHash: string

// 0.0000001 USD per token = 100 nano-dollars per token.
const price = `pricing: { prompt: "0.0000001", completion: "0" }`

before(async () => {
  primary = await startFakeUpstream({ api: 'openai-chat', apiKey: 'up' })
  backup = await startFakeUpstream({ api: 'openai-chat', apiKey: 'up' })
  gemini = await startFakeUpstream({ api: 'gemini', apiKey: 'up' })
  const yaml = `providers:
  - { slug: primary, api: openai-chat, base_url: "${primary.url}", api_key: up }
  - { slug: backup, api: openai-chat, base_url: "${backup.url}", api_key: up }
  - { slug: gem, api: gemini, base_url: "${gemini.url}", api_key: up }
models:
  - slug: test/embed
    kind: embedding
    endpoints:
      - { provider: primary, upstream_model_id: embed-up, supported_parameters: [dimensions, encoding_format, input_type], ${price} }
      - { provider: backup, upstream_model_id: embed-backup, pricing: { prompt: "0.0000002", completion: "0" } }
  - slug: test/gemini-embed
    kind: embedding
    endpoints:
      - { provider: gem, upstream_model_id: text-embedding-004, ${price} }
  - slug: test/chat
    endpoints:
      - { provider: primary, upstream_model_id: chat-up, pricing: { prompt: "0.000001", completion: "0.000001" } }
embeddings:
  max_input_chars: 2000
`
  gateway = await startTestGateway({ yaml })
  base = await gateway.listen()
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'embeddings', limit: 5 },
  })
  assert.equal(created.statusCode, 201, created.body)
  key = (created.json() as { key: string }).key
  keyHash = (created.json() as { data: { hash: string } }).data.hash
})
after(async () => {
  await gateway.close()
  await Promise.all([primary.close(), backup.close(), gemini.close()])
})

/** The embeddings body an upstream received last, with the members these tests read. */
interface SentEmbeddings {
  readonly model?: string
  readonly input?: unknown
  readonly input_type?: string
  readonly encoding_format?: string
  readonly dimensions?: number
  readonly taskType?: string
  readonly requests?: readonly { readonly outputDimensionality?: number }[]
}

const lastSentTo = (upstream: FakeUpstream): SentEmbeddings => upstream.requests.at(-1)!.body as SentEmbeddings

const openai = () => new OpenAI({ apiKey: key, baseURL: `${base}/api/v1`, maxRetries: 0 })
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/v1/embeddings`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

test('openai SDK: float and base64 (explicit and the SDK default, which decodes base64 itself)', async () => {
  const vectors = [
    [0.5, -0.25, 1.5],
    [0.125, 0, -2],
  ]
  primary.script({ type: 'embeddings', vectors })
  const float = await openai().embeddings.create({
    model: 'test/embed',
    input: ['a b c d', 'efgh'],
    encoding_format: 'float',
  })
  assert.deepEqual(
    float.data.map((item) => item.embedding),
    vectors,
  )
  assert.deepEqual(
    float.data.map((item) => item.index),
    [0, 1],
  )
  assert.equal(float.model, 'test/embed')
  assert.equal(float.usage.prompt_tokens, 3)
  assert.match((float as unknown as { id: string }).id, /^gen-/)
  assert.equal(lastSentTo(primary).model, 'embed-up')
  assert.equal(lastSentTo(primary).encoding_format, 'float')

  primary.script({ type: 'embeddings', vectors: [vectors[0]!] })
  const explicit = await openai().embeddings.create({ model: 'test/embed', input: 'abcd', encoding_format: 'base64' })
  // Asked of the upstream as base64 too, and passed through as it sent it.
  assert.equal(lastSentTo(primary).encoding_format, 'base64')
  const bytes = Buffer.from(explicit.data[0]!.embedding as unknown as string, 'base64')
  assert.deepEqual(
    [0, 1, 2].map((index) => bytes.readFloatLE(index * 4)),
    vectors[0],
  )

  primary.script({ type: 'embeddings', vectors: [vectors[1]!] })
  const defaulted = await openai().embeddings.create({ model: 'test/embed', input: 'abcd' })
  assert.deepEqual(defaulted.data[0]!.embedding, vectors[1])
})

test('@openrouter/sdk embeddings.generate accepts the response; input_type and dimensions reach the upstream, session_id does not', async () => {
  primary.script({ type: 'embeddings', vectors: [[1, 2]] })
  const client = new OpenRouter({ apiKey: key, serverURL: `${base}/api/v1` })
  const result = await client.embeddings.generate({
    requestBody: {
      model: 'test/embed',
      input: 'query text',
      inputType: 'search_query',
      dimensions: 2,
      sessionId: 'sess-1',
    },
  } as never)
  const body = result as unknown as { data: { embedding: number[] }[]; usage: { promptTokens: number; cost: number } }
  assert.deepEqual(body.data[0]!.embedding, [1, 2])
  assert.equal(body.usage.promptTokens, 3)
  assert.equal(body.usage.cost, 0.0000003)
  const sent = lastSentTo(primary)
  assert.equal(sent.input_type, 'search_query')
  assert.equal(sent.dimensions, 2)
  assert.equal('session_id' in sent, false)
  assert.equal(primary.requests.at(-1)!.rawBody.includes('sess-1'), false)
})

test('token arrays and multimodal parts are passed on', async () => {
  primary.script({ type: 'embeddings', vectors: [[1], [2]] })
  const tokens = await post({
    model: 'test/embed',
    input: [
      [1, 2, 3],
      [4, 5],
    ],
  })
  assert.equal(tokens.status, 200)
  assert.deepEqual(lastSentTo(primary).input, [
    [1, 2, 3],
    [4, 5],
  ])
  primary.script({ type: 'embeddings', vectors: [[3]] })
  const parts = await post({
    model: 'test/embed',
    input: [
      {
        content: [
          { type: 'text', text: 'a cat' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
        ],
      },
    ],
  })
  assert.equal(parts.status, 200, await parts.clone().text())
  assert.deepEqual(lastSentTo(primary).input, [
    {
      content: [
        { type: 'text', text: 'a cat' },
        { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
      ],
    },
  ])
})

test('gemini: embedContent for one input, batchEmbedContents for many, input_type -> taskType', async () => {
  gemini.script({ type: 'embeddings', vectors: [[0.1, 0.2]] })
  const one = await post({ model: 'test/gemini-embed', input: 'hello world!', input_type: 'search_document' })
  assert.equal(one.status, 200)
  assert.deepEqual(((await one.json()) as { data: { embedding: number[] }[] }).data[0]!.embedding, [0.1, 0.2])
  assert.match(gemini.requests.at(-1)!.path, /text-embedding-004:embedContent$/)
  assert.equal(lastSentTo(gemini).taskType, 'RETRIEVAL_DOCUMENT')
  gemini.script({ type: 'embeddings', vectors: [[1], [2]] })
  const many = await post({ model: 'test/gemini-embed', input: ['abcdefgh', 'ijkl'], dimensions: 1 })
  const body = (await many.json()) as { data: { embedding: number[] }[]; usage: { prompt_tokens: number } }
  assert.deepEqual(
    body.data.map((item) => item.embedding),
    [[1], [2]],
  )
  // Gemini reports no tokens: the inputs are counted with o200k_base, one token each.
  assert.equal(body.usage.prompt_tokens, 2)
  assert.match(gemini.requests.at(-1)!.path, /:batchEmbedContents$/)
  assert.equal(lastSentTo(gemini).requests?.[0]?.outputDimensionality, 1)
})

test('fallbacks: a 429 moves on to the next endpoint (input_type only to endpoints that take it); all failing answers the last status', async () => {
  primary.script({ type: 'error', status: 429, retryAfterSeconds: 1 })
  backup.script({ type: 'embeddings', vectors: [[9]] })
  const fallback = await post({ model: 'test/embed', input: 'abcd', input_type: 'search_query' })
  assert.equal(fallback.status, 200)
  assert.equal(lastSentTo(backup).model, 'embed-backup')
  assert.equal(lastSentTo(primary).input_type, 'search_query', 'primary lists input_type in supported_parameters')
  assert.equal('input_type' in lastSentTo(backup), false, 'backup (OpenAI-like, strict about fields) does not get it')
  primary.script({ type: 'error', status: 503 })
  backup.script({ type: 'error', status: 502 })
  const failed = await post({ model: 'test/embed', input: 'abcd' })
  assert.equal(failed.status, 502)
  primary.script({ type: 'error', status: 429 })
  const limited = await post({ model: 'test/embed', input: 'abcd', provider: { allow_fallbacks: false } })
  assert.equal(limited.status, 429)
})

test('errors: 404 unknown model, 400 text model or bad dimensions, 413 oversized input, 402 over the key limit', async () => {
  assert.equal((await post({ model: 'test/nope', input: 'x' })).status, 404)
  const textModel = await post({ model: 'test/chat', input: 'x' })
  assert.equal(textModel.status, 400)
  const dims = await post({ model: 'test/embed', input: 'x', dimensions: 0 })
  assert.equal(dims.status, 400)
  assert.match(((await dims.json()) as { error: { message: string } }).error.message, /dimensions/)
  const big = await post({ model: 'test/embed', input: 'x'.repeat(2001) })
  assert.equal(big.status, 413)
  assert.match(((await big.json()) as { error: { message: string } }).error.message, /max_input_chars/)
  const tiny = (
    await gateway.inject({
      method: 'POST',
      url: '/api/v1/keys',
      headers: bearer(gateway.adminKey),
      payload: { name: 'tiny', limit: 0.0000001 },
    })
  ).json() as { key: string }
  const poor = await fetch(`${base}/api/v1/embeddings`, {
    method: 'POST',
    headers: { ...bearer(tiny.key), 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'test/embed', input: 'x'.repeat(1500) }),
  })
  assert.equal(poor.status, 402)
})

test('generation records (api_type embeddings) and key usage equal tokens x price exactly', async () => {
  primary.script({ type: 'embeddings', vectors: [[1]] })
  const answer = (await (
    await post({ model: 'test/embed', input: 'x'.repeat(40), user: 'end-user-1' }, { 'x-session-id': 'from-header' })
  ).json()) as { id: string; usage: { prompt_tokens: number } }
  assert.equal(answer.usage.prompt_tokens, 10)
  await gateway.drained()
  const generation = (
    await gateway.inject({ method: 'GET', url: `/api/v1/generation?id=${answer.id}`, headers: bearer(key) })
  ).json() as {
    data: { api_type: string; tokens_prompt: number; total_cost: number; session_id: string; provider_name: string }
  }
  assert.equal(generation.data.api_type, 'embeddings')
  assert.equal(generation.data.tokens_prompt, 10)
  assert.equal(generation.data.session_id, 'from-header')
  assert.equal(generation.data.provider_name, 'primary')
  const rows = await gateway.store.db
    .selectFrom('generations')
    .select(['cost_nano', 'tokens_prompt', 'provider', 'status'])
    .where('key_hash', '=', keyHash)
    .where('status', '=', 'completed')
    .execute()
  const expected = rows.reduce(
    (sum, row) => sum + BigInt(row.tokens_prompt) * (row.provider === 'backup' ? 200n : 100n),
    0n,
  )
  const total = rows.reduce((sum, row) => sum + BigInt(row.cost_nano), 0n)
  assert.equal(total, expected)
  const keyView = (
    await gateway.inject({ method: 'GET', url: `/api/v1/keys/${keyHash}`, headers: bearer(gateway.adminKey) })
  ).json() as { data: { usage: number } }
  assert.equal(Math.round(keyView.data.usage * 1e9), Number(total))
})
