// Every inference entry point is held to the same policy: for each row of the matrix (a guardrail's
// model or provider lists, data regions, ZDR, a content filter's block rule, a guardrail budget, a
// workspace budget, a key limit, a key's tokens-per-minute rule, the organization's credits), the HTTP
// dialects, /embeddings, System One, a server-tool loop step and a batch line of each endpoint answer
// the same status; a new inference route without a place in the matrix fails the last test. A batch
// line's status is its response's status_code, or the status of its error's kind (or of its refused
// submission).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { errorKinds, type ErrorKind } from '../../src/domain/errors.ts'
import type { BatchEndpoint } from '../../src/batches/batch-status.ts'
import type { DialectName } from '../../src/dialects/dialect.ts'
import { setTimeout as sleep } from 'node:timers/promises'

let gateway: TestGateway
// The same catalog with credits.enforce and no grant: every call there finds the balance spent.
let creditsGateway: TestGateway
// The gateway the current row runs against.
let current: TestGateway
let upstream: FakeUpstream

const chatModel = 'test/model'
const embeddingModel = 'test/embed'
// The smallest budget or limit accepted; every call below reserves more than it.
const tinyUsd = 0.000001
// The YAML default every key spends too, far more than a row's calls use (about 30 tokens each).
const tokensPerMinute = 10_000

const catalogYaml = () => [
  'providers:',
  `  - { slug: chatco, api: openai-chat, base_url: "${upstream.url}" }`,
  'models:',
  `  - slug: ${chatModel}`,
  '    endpoints:',
  '      - { provider: chatco, upstream_model_id: m1, max_output_tokens: 100, pricing: { prompt: "0.000001", completion: "0.000002" } }',
  `  - slug: ${embeddingModel}`,
  '    kind: embedding',
  '    endpoints:',
  '      - { provider: chatco, upstream_model_id: e1, pricing: { prompt: "0.000001", completion: "0" } }',
  'batches: { poll_interval_ms: 20 }',
  `rate_limits: { per_key: { tokens_per_minute: ${tokensPerMinute} } }`,
]

before(async () => {
  upstream = await startFakeUpstream({ api: 'openai-chat' })
  gateway = await startTestGateway({ yaml: [...catalogYaml(), ''].join('\n') })
  creditsGateway = await startTestGateway({ yaml: [...catalogYaml(), 'credits: { enforce: true }', ''].join('\n') })
  current = gateway
})
after(async () => {
  await gateway.close()
  await creditsGateway.close()
  await upstream.close()
})

const admin = () => ({ ...bearer(current.adminKey), 'content-type': 'application/json' })

async function manage(method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>): Promise<unknown> {
  const answer = await current.inject({ method, url, headers: admin(), payload })
  assert.ok(answer.statusCode === 200 || answer.statusCode === 201, `${method} ${url}: ${answer.body}`)
  return answer.json()
}

interface MatrixKey {
  readonly key: string
  readonly hash: string
}

async function newKey(name: string, fields: Record<string, unknown> = {}): Promise<MatrixKey> {
  const created = (await manage('POST', '/api/v1/keys', { name, ...fields })) as { key: string; data: { hash: string } }
  return { key: created.key, hash: created.data.hash }
}

async function guardedKey(name: string, guardrail: Record<string, unknown>): Promise<MatrixKey> {
  const key = await newKey(name)
  const created = (await manage('POST', '/api/v1/guardrails', { name, ...guardrail })) as { data: { id: string } }
  await manage('POST', `/api/v1/guardrails/${created.data.id}/assignments/keys`, { key_hashes: [key.hash] })
  await current.internals.caches.guardrails.settled()
  return key
}

interface Row {
  readonly name: string
  readonly status: number
  readonly key: () => Promise<MatrixKey>
  /** The gateway the row runs on (default: the one without credits enforcement). */
  readonly gateway?: () => TestGateway
}

const rows: readonly Row[] = [
  { name: 'no policy in the way', status: 200, key: () => newKey('open') },
  {
    name: 'a guardrail ignored_models names the model',
    status: 403,
    key: () => guardedKey('ignored', { ignored_models: [chatModel, embeddingModel] }),
  },
  {
    name: 'a guardrail allowed_providers excludes every endpoint',
    status: 403,
    key: () => guardedKey('elsewhere', { allowed_providers: ['elsewhere'] }),
  },
  {
    name: 'a guardrail allowed_models leaves the model out',
    status: 403,
    key: () => guardedKey('other-models', { allowed_models: ['other/model'] }),
  },
  {
    name: 'a guardrail allows only data regions no endpoint serves',
    status: 403,
    key: () => guardedKey('regions', { allowed_data_regions: ['europe'] }),
  },
  {
    name: 'a guardrail enforces zero data retention and no endpoint has it',
    status: 403,
    key: () => guardedKey('zdr', { enforce_zdr: true }),
  },
  {
    name: 'a guardrail content filter blocks the input',
    status: 403,
    key: () => guardedKey('blocked', { content_filters: [{ pattern: 'hello', action: 'block' }] }),
  },
  {
    name: 'the guardrail budget is spent',
    status: 402,
    key: () => guardedKey('guardrail-budget', { limit_usd: tinyUsd, reset_interval: 'daily' }),
  },
  {
    name: 'the workspace daily budget is spent',
    status: 402,
    key: async () => {
      const workspace = (await manage('POST', '/api/v1/workspaces', { name: 'Spent', slug: 'spent' })) as {
        data: { id: string }
      }
      await manage('PUT', '/api/v1/workspaces/spent/budgets/daily', { limit_usd: tinyUsd })
      await current.internals.caches.workspaces.settled()
      return newKey('workspace-budget', { workspace_id: workspace.data.id })
    },
  },
  { name: 'the key limit is spent', status: 402, key: () => newKey('key-limit', { limit: tinyUsd }) },
  {
    name: "the key's tokens-per-minute rule is spent",
    status: 429,
    key: async () => {
      const key = await newKey('tokens')
      // One token a minute: the first call empties the bucket, and the next call's estimate (a few tokens)
      // fits only minutes later, far beyond the row's run time however loaded the machine is.
      await manage('POST', '/api/v1/rate-limits', { key_hash: key.hash, tokens_per_minute: 1 })
      assert.equal(await post(key.key, '/api/v1/chat/completions', chatBody), 200)
      return key
    },
  },
  {
    name: "the organization's credit balance is spent (credits.enforce, no grant)",
    status: 402,
    gateway: () => creditsGateway,
    key: () => newKey('no-credits'),
  },
]

const chatBody = { model: chatModel, messages: [{ role: 'user', content: 'hello there' }], max_tokens: 50 }
const responsesBody = { model: chatModel, input: 'hello there', max_output_tokens: 50 }
const embeddingsBody = { model: embeddingModel, input: 'hello there' }

async function post(key: string, url: string, payload: Record<string, unknown>): Promise<number> {
  const answer = await current.inject({
    method: 'POST',
    url,
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload,
  })
  return answer.statusCode
}

/** The status of a batch's only line: its response's status_code, or the status of its error's kind. */
async function batchLineStatus(key: string, endpoint: BatchEndpoint, body: Record<string, unknown>): Promise<number> {
  const { model, ...line } = body
  const headers = { ...bearer(key), 'content-type': 'application/json' }
  const submitted = await current.inject({
    method: 'POST',
    url: '/api/v1/batches',
    headers,
    payload: { endpoint, model, requests: [{ custom_id: 'only', body: line }] },
  })
  // A batch refused at submission (credits spent) refuses its line with it.
  if (submitted.statusCode !== 202) return submitted.statusCode
  const id = (submitted.json() as { id: string }).id
  const [result] = await batchResults(id, headers)
  if (result?.response !== null && result?.response !== undefined) return result.response.status_code
  const reason = result?.error?.type
  const kind = (Object.keys(errorKinds) as ErrorKind[]).find((candidate) => errorKinds[candidate].reason === reason)
  assert.ok(kind !== undefined, `batch line result: ${JSON.stringify(result)}`)
  return errorKinds[kind].status
}

interface LineResult {
  readonly response: { readonly status_code: number } | null
  readonly error: { readonly type: string } | null
}

/** Polls the batch until it is finished (its results are null until then), with a generous deadline. */
async function batchResults(id: string, headers: Record<string, string>): Promise<readonly LineResult[]> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const batch = (await current.inject({ method: 'GET', url: `/api/v1/batches/${id}`, headers })).json() as {
      results: readonly LineResult[] | null
    }
    if (batch.results !== null) return batch.results
    assert.ok(Date.now() < deadline, `batch ${id} did not finish`)
    await sleep(20)
  }
}

// Records over every dialect and every batch endpoint: a new one fails to compile until it has a row here.
const dialectRoutes: Readonly<Record<DialectName, { readonly url: string; readonly body: Record<string, unknown> }>> = {
  'openai-chat': { url: '/api/v1/chat/completions', body: chatBody },
  'openai-responses': { url: '/api/v1/responses', body: responsesBody },
  'anthropic-messages': { url: '/api/v1/messages', body: chatBody },
}

// One System One question about a state that says hello (the content filter row blocks it); the fake
// upstream's default answer ("Hello from the fake upstream.") is the label of its first option.
const systemOneBody = {
  model: chatModel,
  state: 'hello there',
  questions: {
    greeting: {
      type: 'choice',
      instructions: 'What is it?',
      criteria: { 'Hello from the fake upstream': 'a greeting', other: null },
    },
  },
}
// A /responses call offering a server tool runs the server-tool loop: its first step is the call refused.
const serverToolBody = { ...responsesBody, tools: [{ type: 'openrouter:datetime' }] }

const httpEntryPoints: Readonly<Record<string, (key: string) => Promise<number>>> = {
  ...Object.fromEntries(
    Object.values(dialectRoutes).map(({ url, body }) => [url, (key: string) => post(key, url, body)] as const),
  ),
  '/api/v1/embeddings': (key) => post(key, '/api/v1/embeddings', embeddingsBody),
  '/api/v1/systemone': (key) => post(key, '/api/v1/systemone', systemOneBody),
  'server-tool step (/api/v1/responses with openrouter:datetime)': (key) =>
    post(key, '/api/v1/responses', serverToolBody),
}

/** The inference routes the matrix reaches, by the OpenAPI path it posts to. */
const coveredRoutes = new Set([
  ...Object.values(dialectRoutes).map(({ url }) => url),
  '/api/v1/embeddings',
  '/api/v1/systemone',
])
// Inference routes that are another name of a covered one, or that make no model call.
const notCalls: Readonly<Record<string, string>> = {
  '/api/alpha/decisions': 'the alias of /api/v1/systemone (same handler)',
  '/api/v1/messages/count_tokens': 'counts input tokens locally; no model call, nothing billed',
}

const batchLines: Readonly<Record<BatchEndpoint, Record<string, unknown>>> = {
  '/v1/chat/completions': chatBody,
  '/v1/responses': responsesBody,
  '/v1/messages': chatBody,
  '/v1/embeddings': embeddingsBody,
}

for (const row of rows) {
  test(`policy matrix: ${row.name} -> ${row.status} on every entry point`, async () => {
    current = row.gateway?.() ?? gateway
    const { key } = await row.key()
    const statuses: Record<string, number> = {}
    for (const [name, call] of Object.entries(httpEntryPoints)) statuses[name] = await call(key)
    for (const [endpoint, body] of Object.entries(batchLines) as [BatchEndpoint, Record<string, unknown>][])
      statuses[`batch line ${endpoint}`] = await batchLineStatus(key, endpoint, body)
    const expected = Object.fromEntries(Object.keys(statuses).map((name) => [name, row.status]))
    assert.deepEqual(statuses, expected)
    current = gateway
  })
}

test('every inference route of the OpenAPI document is an entry point of the matrix', async () => {
  const document = (await gateway.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as {
    paths: Record<string, Record<string, { tags?: string[] }>>
  }
  const inferenceRoutes = Object.entries(document.paths)
    .filter(([, operations]) => operations.post?.tags?.includes('inference') === true)
    .map(([path]) => path)
    .sort()
  assert.ok(inferenceRoutes.length >= 5, `inference routes: ${inferenceRoutes.join(', ')}`)
  const uncovered = inferenceRoutes.filter((path) => !coveredRoutes.has(path) && notCalls[path] === undefined)
  assert.deepEqual(uncovered, [], 'inference routes the policy matrix does not run: add them to httpEntryPoints')
  for (const path of [...coveredRoutes, ...Object.keys(notCalls)])
    assert.ok(inferenceRoutes.includes(path), `${path} is no longer an inference route`)
})

test('a redact rule rewrites an embeddings input before the upstream sees it', async () => {
  const { key } = await guardedKey('redacted', { content_filter_builtins: [{ slug: 'email', action: 'redact' }] })
  const answer = await gateway.inject({
    method: 'POST',
    url: '/api/v1/embeddings',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: { model: embeddingModel, input: ['write to ada@example.com', 'no address here'] },
  })
  assert.equal(answer.statusCode, 200, answer.body)
  assert.deepEqual((upstream.requests.at(-1)?.body as { input?: unknown }).input, [
    'write to [EMAIL]',
    'no address here',
  ])
})
