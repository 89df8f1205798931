// Every entry point of the call core is held to the same policy: for each row of the matrix (a guardrail's
// model and provider allow- and deny-lists, data regions, ZDR, a content filter's block rule, a guardrail
// budget, a workspace budget, a key limit, a key's requests- and tokens-per-minute rules, the
// organization's credits), the HTTP dialects, /embeddings, System One, a server-tool loop step, an intern
// turn and a batch line of each endpoint answer the same status. Each row runs in its own workspace, with
// the policy on an inference key and on an intern's runtime key. The entry points are keyed by
// CallEntryPoint (test/support/call-entry-points.ts), which the architecture test keeps complete; a new
// inference route without a place in the matrix fails the OpenAPI test below. A batch line's status is
// its response's status_code, or the status of its error's kind (or of its refused submission); an
// intern turn's is its error chunk's code (matrix-intern.ts). A refused call is never passed on: in every
// row but the first, no entry point reaches the upstream or adds to the usage of the row's keys. An
// alignment check refused by the scope its line spent is test/batches/alignment-check-limits-scenarios.ts.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { errorKinds, type ErrorKind } from '../../src/domain/errors.ts'
import type { BatchEndpoint } from '../../src/batches/batch-status.ts'
import type { DialectName } from '../../src/dialects/dialect.ts'
import { setTimeout as sleep } from 'node:timers/promises'
import type { CallEntryPoint } from '../support/call-entry-points.ts'
import { matrixIntern, type MatrixIntern } from './matrix-intern.ts'

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

async function manage(method: 'POST' | 'PUT' | 'PATCH', url: string, payload: unknown): Promise<unknown> {
  const answer = await current.inject({ method, url, headers: admin(), payload: JSON.stringify(payload) })
  assert.ok(answer.statusCode === 200 || answer.statusCode === 201, `${method} ${url}: ${answer.body}`)
  return answer.json()
}

async function newKey(name: string, workspaceId: string): Promise<{ key: string; hash: string }> {
  const created = (await manage('POST', '/api/v1/keys', { name, workspace_id: workspaceId })) as {
    key: string
    data: { hash: string }
  }
  return { key: created.key, hash: created.data.hash }
}

/** What a row's policy is put on: its own workspace, an inference key and an intern's runtime key in it. */
interface RowScope {
  readonly workspace: { readonly id: string; readonly slug: string }
  /** The inference key the HTTP entry points and batch lines call with. */
  readonly key: string
  /** The keys the row's policy applies to: that key and the intern's runtime key. */
  readonly hashes: readonly string[]
  /** One call with each of those keys (a chat completion, an intern turn), for rows that spend an allowance. */
  readonly callEach: () => Promise<number[]>
}

interface Row {
  readonly name: string
  readonly status: number
  /** Puts the row's policy in place (nothing: no policy in the way). */
  readonly apply?: (scope: RowScope) => Promise<void>
  /** The gateway the row runs on (default: the one without credits enforcement). */
  readonly gateway?: () => TestGateway
}

/** A guardrail of the row's workspace with `fields`, assigned to the row's keys. */
const guardrail =
  (fields: Record<string, unknown>) =>
  async (scope: RowScope): Promise<void> => {
    const created = (await manage('POST', '/api/v1/guardrails', {
      name: `g-${scope.workspace.slug}`,
      workspace_id: scope.workspace.id,
      ...fields,
    })) as { data: { id: string } }
    await manage('POST', `/api/v1/guardrails/${created.data.id}/assignments/keys`, { key_hashes: scope.hashes })
    await current.drained()
  }

/** A per-minute rule of one on each key, spent by one admitted call with each. */
const perMinuteRule = (field: 'requests_per_minute' | 'tokens_per_minute') => async (scope: RowScope) => {
  for (const hash of scope.hashes) await manage('POST', '/api/v1/rate-limits', { key_hash: hash, [field]: 1 })
  assert.deepEqual(await scope.callEach(), [200, 200])
}

const rows: readonly Row[] = [
  { name: 'no policy in the way', status: 200 },
  {
    name: 'a guardrail ignored_models names the model',
    status: 403,
    apply: guardrail({ ignored_models: [chatModel, embeddingModel] }),
  },
  {
    name: 'a guardrail allowed_providers excludes every endpoint',
    status: 403,
    apply: guardrail({ allowed_providers: ['elsewhere'] }),
  },
  {
    name: 'a guardrail ignored_providers names the only provider',
    status: 403,
    apply: guardrail({ ignored_providers: ['chatco'] }),
  },
  {
    name: 'a guardrail allowed_models leaves the model out',
    status: 403,
    apply: guardrail({ allowed_models: ['other/model'] }),
  },
  {
    name: 'a guardrail allows only data regions no endpoint serves',
    status: 403,
    apply: guardrail({ allowed_data_regions: ['europe'] }),
  },
  {
    name: 'a guardrail enforces zero data retention and no endpoint has it',
    status: 403,
    apply: guardrail({ enforce_zdr: true }),
  },
  {
    name: 'a guardrail content filter blocks the input',
    status: 403,
    apply: guardrail({ content_filters: [{ pattern: 'hello', action: 'block' }] }),
  },
  {
    name: 'the guardrail budget is spent',
    status: 402,
    apply: guardrail({ limit_usd: tinyUsd, reset_interval: 'daily' }),
  },
  {
    name: 'the workspace daily budget is spent',
    status: 402,
    apply: async (scope) => {
      await manage('PUT', `/api/v1/workspaces/${scope.workspace.slug}/budgets/daily`, { limit_usd: tinyUsd })
      await current.drained()
    },
  },
  {
    name: 'the key limit is spent',
    status: 402,
    apply: async (scope) => {
      for (const hash of scope.hashes) await manage('PATCH', `/api/v1/keys/${hash}`, { limit: tinyUsd })
    },
  },
  // One request (or token) a minute: the first call spends it, and the next fits only a minute later, far
  // beyond the row's run time however loaded the machine is (the gateway's clock stands still anyway).
  { name: "the key's requests-per-minute rule is spent", status: 429, apply: perMinuteRule('requests_per_minute') },
  { name: "the key's tokens-per-minute rule is spent", status: 429, apply: perMinuteRule('tokens_per_minute') },
  {
    name: "the organization's credit balance is spent (credits.enforce, no grant)",
    status: 402,
    gateway: () => creditsGateway,
  },
]

let workspaces = 0

/** The usage (USD) of each key, once every accepted write is durable. */
async function keysUsage(hashes: readonly string[]): Promise<number[]> {
  await current.drained()
  const usage: number[] = []
  for (const hash of hashes) {
    const answer = await current.inject({ method: 'GET', url: `/api/v1/keys/${hash}`, headers: admin() })
    usage.push((answer.json() as { data: { usage: number } }).data.usage)
  }
  return usage
}

/** The row's workspace, its inference key, an operator key for the intern routes, and a running intern. */
async function rowScope(): Promise<RowScope & { readonly intern: MatrixIntern }> {
  workspaces += 1
  const slug = `matrix-${workspaces}`
  const workspace = (await manage('POST', '/api/v1/workspaces', { name: slug, slug })) as { data: { id: string } }
  const id = workspace.data.id
  const { key, hash } = await newKey('subject', id)
  const operator = await newKey('operator', id)
  const intern = await matrixIntern(current, operator.key, id, chatModel)
  return {
    workspace: { id, slug },
    key,
    hashes: [hash, intern.hash],
    callEach: async () => [await post(key, '/api/v1/chat/completions', chatBody), await intern.turn()],
    intern,
  }
}

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

const batchLines: Readonly<Record<BatchEndpoint, Record<string, unknown>>> = {
  '/v1/chat/completions': chatBody,
  '/v1/responses': responsesBody,
  '/v1/messages': chatBody,
  '/v1/embeddings': embeddingsBody,
}

type EntryPointCall = (scope: RowScope & { readonly intern: MatrixIntern }) => Promise<number>

// Keyed by every entry point of the call core (test/support/call-entry-points.ts): a new one fails to
// compile until it runs here, and a new caller of the core fails the architecture test until it names one.
const entryPoints: Readonly<Record<CallEntryPoint, EntryPointCall>> = {
  ...(Object.fromEntries(
    Object.values(dialectRoutes).map(({ url, body }) => [url, ({ key }) => post(key, url, body)] as const),
  ) as Record<`/api/v1/${'chat/completions' | 'responses' | 'messages'}`, EntryPointCall>),
  '/api/v1/embeddings': ({ key }) => post(key, '/api/v1/embeddings', embeddingsBody),
  '/api/v1/systemone': ({ key }) => post(key, '/api/v1/systemone', systemOneBody),
  'server-tool step': ({ key }) => post(key, '/api/v1/responses', serverToolBody),
  'intern turn': ({ intern }) => intern.turn(),
  ...(Object.fromEntries(
    Object.entries(batchLines).map(([endpoint, body]) => [
      `batch line ${endpoint}`,
      ({ key }) => batchLineStatus(key, endpoint as BatchEndpoint, body),
    ]),
  ) as Record<`batch line ${BatchEndpoint}`, EntryPointCall>),
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

for (const row of rows) {
  test(`policy matrix: ${row.name} -> ${row.status} on every entry point`, async () => {
    current = row.gateway?.() ?? gateway
    try {
      const scope = await rowScope()
      await row.apply?.(scope)
      const upstreamCalls = upstream.requests.length
      const usage = await keysUsage(scope.hashes)
      const statuses: Record<string, number> = {}
      for (const [name, call] of Object.entries(entryPoints)) statuses[name] = await call(scope)
      const expected = Object.fromEntries(Object.keys(entryPoints).map((name) => [name, row.status]))
      assert.deepEqual(statuses, expected)
      if (row.status === 200) return
      // A refused call is never passed on: no entry point reached the upstream or billed the row's keys.
      assert.equal(upstream.requests.length, upstreamCalls, 'a refused call reached the upstream')
      assert.deepEqual(await keysUsage(scope.hashes), usage)
    } finally {
      current = gateway
    }
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
  const scope = await rowScope()
  await guardrail({ content_filter_builtins: [{ slug: 'email', action: 'redact' }] })(scope)
  const { key } = scope
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
