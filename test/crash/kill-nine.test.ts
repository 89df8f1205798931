// kill -9 under load, as an operator would try it: a gateway process (the bundle `npm start` runs)
// answers concurrent chat clients and runs a batch whose later lines are held in flight by the
// upstream; it is killed with SIGKILL, restarted on the same store, and then every answer a client
// received whole has its ledger row and its generation record, each batch line has exactly one
// result, one ledger row and one generation record, no line whose result was stored before the kill
// is sent upstream again, and the lines that were in flight are sent again and counted. On SQLite
// always; on PostgreSQL + Redis when TEST_DATABASE_URL and TEST_REDIS_URL are set. Leases last 5 s, longer
// than a line takes on a loaded machine, so the restarted worker runs the held lines about 5 s later.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { createPostgresDatabase, createSqliteDatabase, type TestDatabase } from '../support/test-store.ts'
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { bundleGateway, startGateway, type GatewayProcess } from './gateway-process.ts'
import { driveChatTraffic } from './chat-traffic.ts'

const postgres = postgresTarget()
const redis = redisTarget()
const adminKey = `sk-sy-v1-crash-${randomBytes(16).toString('hex')}`
/** Batch lines answered before the kill, then lines held in flight by the upstream when it happens. */
const answeredLines = 8
const heldLines = 6
const totalLines = 24
const chatAnswersBeforeKill = 40

let gatewayBundle: Awaited<ReturnType<typeof bundleGateway>>
const started = new Set<GatewayProcess>()

before(async () => {
  gatewayBundle = await bundleGateway('crash-test')
})
after(async () => {
  for (const gateway of started) await gateway.kill()
  gatewayBundle.remove()
})

interface Scenario {
  readonly database: TestDatabase
  readonly env: Record<string, string>
  readonly chat: FakeUpstream
  readonly lines: FakeUpstream
  releaseHeld(): void
}

async function prepare(database: TestDatabase, redisUrl: string | null): Promise<Scenario> {
  const chat = await startFakeUpstream({ api: 'openai-chat' })
  const lines = await startFakeUpstream({ api: 'openai-chat' })
  let releaseHeld = (): void => undefined
  const hold = new Promise<void>((resolve) => (releaseHeld = resolve))
  for (let index = 0; index < answeredLines; index++) lines.script({ type: 'completion', text: `line answer ${index}` })
  for (let index = 0; index < heldLines; index++)
    lines.script({ type: 'completion', text: 'held', holdAfterFrames: 0, hold })
  const configPath = join(database.directory, 'switchyard.yaml')
  const endpoint = (provider: string) =>
    `      - { provider: ${provider}, upstream_model_id: up, pricing: { prompt: "0.000001", completion: "0.000002" } }\n`
  writeFileSync(
    configPath,
    `providers:\n  - { slug: chat, api: openai-chat, base_url: "${chat.url}" }\n` +
      `  - { slug: lines, api: openai-chat, base_url: "${lines.url}" }\n` +
      `models:\n  - slug: test/chat\n    endpoints:\n${endpoint('chat')}` +
      `  - slug: test/lines\n    endpoints:\n${endpoint('lines')}` +
      'batches:\n  poll_interval_ms: 50\n  lease_ms: 5000\n  concurrency: 6\n  per_batch_concurrency: 6\n',
  )
  const env: Record<string, string> = {
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    SWITCHYARD_CONFIG: configPath,
    SWITCHYARD_ADMIN_KEY: adminKey,
    SWITCHYARD_MASTER_KEY: randomBytes(32).toString('base64'),
    ...(redisUrl === null ? {} : { REDIS_URL: redisUrl }),
  }
  return { database, env, chat, lines, releaseHeld }
}

/** The fields of the gateway's answers this test reads (a minted key, a batch); a missing one fails the assertion reading it. */
interface Answer {
  readonly key: string
  readonly id: string
  readonly status: string
  readonly request_counts: { readonly total: number; readonly completed: number; readonly failed: number }
  readonly results: readonly { readonly custom_id: string; readonly id: string }[]
}

async function call(url: string, key: string, path: string, body?: unknown): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, json: text === '' ? null : JSON.parse(text) }
}

async function until(
  gateway: GatewayProcess,
  what: string,
  isDone: () => Promise<boolean> | boolean,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await isDone())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the gateway said:\n${gateway.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The custom_ids of lines whose result is stored. */
async function storedLines(store: Store, batchId: string): Promise<string[]> {
  const rows = await store.db
    .selectFrom('batch_items')
    .select('custom_id')
    .where('batch_id', '=', batchId)
    .where('status', '=', 'done')
    .execute()
  return rows.map((row) => row.custom_id)
}

/** How many ledger rows and generation records each of `ids` has. */
async function recordedCounts(store: Store, ids: readonly string[]): Promise<Map<string, [number, number]>> {
  const counts = new Map<string, [number, number]>(ids.map((id) => [id, [0, 0]]))
  for (let offset = 0; offset < ids.length; offset += 400) {
    const slice = ids.slice(offset, offset + 400)
    const ledger = await store.db
      .selectFrom('ledger_entries')
      .select('generation_id')
      .where('generation_id', 'in', slice)
      .execute()
    for (const row of ledger) counts.get(row.generation_id)![0]++
    const records = await store.db.selectFrom('generations').select('id').where('id', 'in', slice).execute()
    for (const row of records) counts.get(row.id)![1]++
  }
  return counts
}

const lineOf = (body: unknown): string =>
  String((body as { messages: { content: string }[] }).messages[0]!.content).replace('question ', 'line-')

interface Crash {
  readonly batchId: string
  readonly lines: readonly { readonly custom_id: string }[]
  /** Lines whose result was stored before the kill. */
  readonly storedBeforeKill: ReadonlySet<string>
  /** Requests the lines' upstream had received at the kill. */
  readonly sentBeforeKill: number
  /** Generation ids of the chat answers received whole. */
  readonly answered: readonly string[]
}

/** Chat traffic and a batch on one gateway, killed once lines are answered and held and answers flowed. */
async function crashUnderLoad(scenario: Scenario, store: Store, gateway: GatewayProcess, key: string): Promise<Crash> {
  const traffic = driveChatTraffic(gateway.url, key, 'test/chat', 6)
  try {
    const lines = Array.from({ length: totalLines }, (_unused, index) => ({
      custom_id: `line-${index}`,
      body: { messages: [{ role: 'user', content: `question ${index}` }], max_tokens: 10 },
    }))
    const submitted = await call(gateway.url, key, '/api/v1/batches', {
      endpoint: '/v1/chat/completions',
      model: 'test/lines',
      completion_window: '24h',
      requests: lines,
    })
    assert.equal(submitted.status, 202, JSON.stringify(submitted.json))
    const batchId = submitted.json.id
    await until(gateway, 'the batch lines to be answered or held', async () => {
      if (scenario.lines.requests.length < answeredLines + heldLines) return false
      return (await storedLines(store, batchId)).length >= answeredLines
    })
    await until(gateway, 'chat answers', () => traffic.answered.length >= chatAnswersBeforeKill)
    const storedBeforeKill = new Set(await storedLines(store, batchId))
    const sentBeforeKill = scenario.lines.requests.length
    await gateway.kill()
    return { batchId, lines, storedBeforeKill, sentBeforeKill, answered: traffic.answered }
  } finally {
    await gateway.kill()
    await traffic.stop()
  }
}

async function runScenario(scenario: Scenario): Promise<void> {
  const { database, env } = scenario
  const first = await startGateway(gatewayBundle.file, database.directory, env)
  started.add(first)
  const minted = await call(first.url, adminKey, '/api/v1/keys', { name: 'crash test' })
  assert.equal(minted.status, 201, JSON.stringify(minted.json))
  const key = minted.json.key
  const store = openStore(database.url)
  try {
    const crash = await crashUnderLoad(scenario, store, first, key)
    assert.equal(crash.storedBeforeKill.size, answeredLines, 'the held lines were in flight, unstored, at the kill')
    const second = await startGateway(gatewayBundle.file, database.directory, env)
    started.add(second)
    await checkAfterRestart(scenario, store, second, key, crash)
    await second.stop()
  } finally {
    scenario.releaseHeld()
    await store.close()
  }
}

async function checkAfterRestart(
  scenario: Scenario,
  store: Store,
  gateway: GatewayProcess,
  key: string,
  crash: Crash,
): Promise<void> {
  let batch = (await call(gateway.url, key, `/api/v1/batches/${crash.batchId}`)).json
  await until(gateway, 'the batch to finish after the restart', async () => {
    batch = (await call(gateway.url, key, `/api/v1/batches/${crash.batchId}`)).json
    return batch.status === 'completed' || batch.status === 'failed'
  })
  assert.deepEqual(batch.request_counts, { total: totalLines, completed: totalLines, failed: 0 })
  assert.deepEqual(
    batch.results.map((result) => result.custom_id).sort(),
    crash.lines.map((line) => line.custom_id).sort(),
    'each line has exactly one result',
  )
  const resent = scenario.lines.requests.slice(crash.sentBeforeKill).map((request) => lineOf(request.body))
  assert.deepEqual(
    resent.filter((line) => crash.storedBeforeKill.has(line)),
    [],
    'a line whose result was stored is never sent again',
  )
  assert.deepEqual(
    [...new Set(resent)].sort(),
    crash.lines
      .map((line) => line.custom_id)
      .filter((line) => !crash.storedBeforeKill.has(line))
      .sort(),
    'every line in flight or not yet run at the kill was sent after the restart',
  )
  const metrics = await (await fetch(`${gateway.url}/metrics`)).text()
  const retried = Number(/^switchyard_batch_lines_retried_total (\d+)$/m.exec(metrics)?.[1])
  // Exactly the held lines, unless a loaded machine let a lease expire while its line ran.
  assert.ok(retried >= heldLines, `${retried} lines counted as retried, ${heldLines} were in flight`)

  const chatCounts = await recordedCounts(store, crash.answered)
  const missing = [...chatCounts].filter(([, [ledger, record]]) => ledger !== 1 || record !== 1)
  assert.deepEqual(missing, [], `every one of the ${crash.answered.length} answered requests is recorded once`)
  const lineCounts = await recordedCounts(
    store,
    batch.results.map((result) => result.id),
  )
  const wrongLines = [...lineCounts].filter(([, [ledger, record]]) => ledger !== 1 || record !== 1)
  assert.deepEqual(wrongLines, [], 'each batch line is billed and recorded exactly once')
}

async function withScenario(database: TestDatabase, redisUrl: string | null): Promise<void> {
  const scenario = await prepare(database, redisUrl)
  try {
    await runScenario(scenario)
  } finally {
    await Promise.all([scenario.chat.close(), scenario.lines.close()])
    await database.dispose()
  }
}

test(
  'kill -9 under chat traffic and a running batch, SQLite: nothing answered is lost, no line runs twice once stored',
  { timeout: 150_000 },
  () => withScenario(createSqliteDatabase(), null),
)

test(
  'kill -9 under chat traffic and a running batch, PostgreSQL + Redis: nothing answered is lost, no line runs twice once stored',
  { timeout: 150_000, skip: postgres.skip || redis.skip },
  () => withScenario(createPostgresDatabase(postgres.url!), redis.url!),
)
