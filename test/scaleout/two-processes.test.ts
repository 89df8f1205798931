// Two Switchyard processes (`node src/main.ts serve`, as deployed) on one PostgreSQL and one Redis,
// driven at once through their sockets: one key's spend limit and one key's rate limit hold across
// both, a key revoked on one is refused by the other within a second, and a batch is processed exactly
// once by both workers even when one process is killed (SIGKILL) mid-batch, and an observability record
// in flight to a slow receiver when its process is killed is delivered by the other. Runs in CI (needs
// TEST_DATABASE_URL and TEST_REDIS_URL).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { createPostgresDatabase, type TestDatabase } from '../support/test-store.ts'
import { postgresTarget, redisTarget } from '../support/test-services.ts'
import { openStore } from '../../src/store/open-store.ts'
import { startRecordingServer } from '../observability/support/recording-server.ts'

const postgres = postgresTarget()
const redis = redisTarget()
const skip = postgres.skip || redis.skip
const root = join(import.meta.dirname, '..', '..')
const adminKey = `sk-sy-v1-two-processes-${randomBytes(16).toString('hex')}`

interface Instance {
  readonly child: ChildProcess
  readonly url: string
  readonly exited: Promise<number | null>
}

let upstream: FakeUpstream
let database: TestDatabase
let env: Record<string, string>
let a: Instance
let b: Instance

async function startInstance(): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src', 'main.ts'), 'serve'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const deadline = Date.now() + 90_000
  while (!/listening on (http:\/\/\S+)/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`instance did not start:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { child, url: /listening on (http:\/\/\S+)/.exec(output)![1]!, exited }
}

/**
 * What the gateway answers, with the fields these tests read: a key, a chat completion, a batch or a
 * destination. A field the answer lacks reads undefined, and the assertion that reads it fails.
 */
interface GatewayJson {
  readonly key: string
  readonly data: { readonly hash: string; readonly id: string; readonly usage: number }
  readonly usage: { readonly cost: number }
  readonly id: string
  readonly status: string
  readonly request_counts: { readonly total: number; readonly completed: number; readonly failed: number }
  readonly results: readonly { readonly custom_id: string }[]
}

async function call(
  instance: Instance,
  path: string,
  init: { method?: string; key?: string; body?: unknown } = {},
): Promise<{ status: number; body: GatewayJson }> {
  const response = await fetch(`${instance.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${init.key ?? adminKey}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : JSON.parse(text) }
}

async function mintKey(name: string, limit?: number): Promise<{ key: string; hash: string }> {
  const created = await call(a, '/api/v1/keys', { body: { name, ...(limit === undefined ? {} : { limit }) } })
  assert.equal(created.status, 201, JSON.stringify(created.body))
  return { key: created.body.key, hash: created.body.data.hash }
}

const chat = (key: string) => ({
  key,
  body: { model: 'test/cheap', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
})

before(async () => {
  if (skip !== false) return
  upstream = await startFakeUpstream({ api: 'openai-chat' })
  database = createPostgresDatabase(postgres.url!)
  const configPath = join(database.directory, 'switchyard.yaml')
  writeFileSync(
    configPath,
    `providers:\n  - { slug: fake, api: openai-chat, base_url: "${upstream.url}" }\n` +
      'models:\n  - slug: test/cheap\n    endpoints:\n      - { provider: fake, upstream_model_id: up, max_output_tokens: 10, pricing: { prompt: "0.000001", completion: "0.000001" } }\n' +
      'rate_limits:\n  per_key: { requests_per_minute: 60 }\n' +
      'batches:\n  poll_interval_ms: 50\n  lease_ms: 1500\n  concurrency: 8\n  per_batch_concurrency: 8\n' +
      'egress:\n  allow_private_networks: true\n' +
      'observability:\n  delivery:\n    spill_after_ms: 200\n    lease_ms: 1500\n    poll_interval_ms: 100\n',
  )
  env = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    REDIS_URL: redis.url!,
    SWITCHYARD_CONFIG: configPath,
    SWITCHYARD_ADMIN_KEY: adminKey,
    SWITCHYARD_MASTER_KEY: randomBytes(32).toString('base64'),
  }
  a = await startInstance()
  b = await startInstance()
})

after(async () => {
  if (skip !== false) return
  for (const instance of [a, b]) {
    if (instance?.child.exitCode === null) {
      instance.child.kill('SIGTERM')
      await instance.exited
    }
  }
  await upstream.close()
  await database.dispose()
})

test(
  'one key spend limit holds across two processes (200 concurrent requests split between them)',
  { skip },
  async () => {
    // The fake upstream's default answer reports 10 input + 5 output tokens: $0.000015 a call at
    // $0.000001 a token; the $0.0003 limit fits about 20 calls (fewer while worst cases are reserved).
    const { key, hash } = await mintKey('spend-limited', 0.0003)
    const results = await Promise.all(
      Array.from({ length: 200 }, (_unused, index) =>
        call(index % 2 === 0 ? a : b, '/api/v1/chat/completions', chat(key)),
      ),
    )
    const admitted = results.filter((result) => result.status === 200)
    assert.ok(
      results.every((result) => result.status === 200 || result.status === 402 || result.status === 429),
      JSON.stringify(results.map((result) => result.status)),
    )
    assert.ok(admitted.length > 0 && admitted.length < 200, `${admitted.length} admitted`)
    const spent = admitted.reduce((sum, result) => sum + Math.round(result.body.usage.cost * 1e9), 0)
    assert.ok(spent <= 300_000, `spent ${spent} nano-dollars against a 300000 limit`)
    const view = await call(b, `/api/v1/keys/${hash}`)
    assert.ok(Math.round(view.body.data.usage * 1e9) <= 300_000)
  },
)

test('one key rate limit holds across two processes', { skip }, async () => {
  const { key } = await mintKey('rate-limited')
  const results = await Promise.all(
    Array.from({ length: 200 }, (_unused, index) =>
      call(index % 2 === 0 ? a : b, '/api/v1/chat/completions', chat(key)),
    ),
  )
  const admitted = results.filter((result) => result.status === 200).length
  const limited = results.filter((result) => result.status === 429).length
  assert.equal(admitted, 60, `admitted ${admitted}`)
  assert.equal(limited, 140)
})

test('a key revoked on one process is refused by the other within a second', { skip }, async () => {
  const { key, hash } = await mintKey('revoked')
  assert.equal((await call(b, '/api/v1/chat/completions', chat(key))).status, 200)
  assert.equal((await call(a, `/api/v1/keys/${hash}`, { method: 'DELETE' })).status, 200)
  const deadline = Date.now() + 1000
  let status = 0
  while (Date.now() < deadline) {
    status = (await call(b, '/api/v1/chat/completions', chat(key))).status
    if (status === 401) break
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  assert.equal(status, 401)
})

test(
  'a batch is processed exactly once by two workers, even when one process is killed mid-batch',
  { skip },
  async () => {
    const { key } = await mintKey('batcher')
    for (let index = 0; index < 120; index += 1)
      upstream.script({
        type: 'completion',
        text: `answer ${index}`,
        usage: { input_tokens: 5, output_tokens: 5 },
        chunkDelayMs: 30,
      })
    const requests = Array.from({ length: 120 }, (_unused, index) => ({
      custom_id: `line-${index}`,
      body: { messages: [{ role: 'user', content: `question ${index}` }], max_tokens: 10 },
    }))
    const submitted = await call(a, '/api/v1/batches', {
      key,
      body: { endpoint: '/v1/chat/completions', model: 'test/cheap', completion_window: '24h', requests },
    })
    assert.equal(submitted.status, 202, JSON.stringify(submitted.body))
    const id = submitted.body.id as string
    const started = Date.now() + 30_000
    while ((await call(b, `/api/v1/batches/${id}`, { key })).body.request_counts.completed < 10 && Date.now() < started)
      await new Promise((resolve) => setTimeout(resolve, 20))
    a.child.kill('SIGKILL')
    await a.exited
    const deadline = Date.now() + 120_000
    let batch = (await call(b, `/api/v1/batches/${id}`, { key })).body
    while (!['completed', 'failed'].includes(batch.status) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      batch = (await call(b, `/api/v1/batches/${id}`, { key })).body
    }
    assert.equal(batch.status, 'completed', JSON.stringify(batch.request_counts))
    assert.deepEqual(batch.request_counts, { total: 120, completed: 120, failed: 0 })
    const customIds = (batch.results as { custom_id: string }[]).map((result) => result.custom_id).sort()
    assert.deepEqual(customIds, requests.map((request) => request.custom_id).sort(), 'each line has exactly one result')
    const store = openStore(database.url)
    try {
      const deadlineLedger = Date.now() + 10_000
      let rows: { generation_id: string }[] = []
      while (Date.now() < deadlineLedger) {
        rows = await store.db
          .selectFrom('ledger_entries')
          .select('generation_id')
          .where('generation_id', 'like', 'gen-batch-%')
          .execute()
        if (rows.length >= 120) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      assert.equal(rows.length, 120, 'one ledger row per line')
      assert.equal(new Set(rows.map((row) => row.generation_id)).size, 120, 'billed once each')
    } finally {
      await store.close()
    }
  },
)

test(
  'an observability record in flight when its process is killed is delivered by the other process',
  { skip },
  async () => {
    const receiver = await startRecordingServer()
    receiver.delayMs = 5_000
    const doomed = await startInstance()
    const store = openStore(database.url)
    try {
      const created = await call(b, '/api/v1/observability/destinations', {
        body: { name: 'slow hook', type: 'webhook', config: { url: `${receiver.url}/hook` } },
      })
      assert.equal(created.status, 201, JSON.stringify(created.body))
      const destinationId = created.body.data.id as string
      const minted = await call(b, '/api/v1/keys', { body: { name: 'observed' } }) // the previous test killed instance a
      assert.equal(minted.status, 201, JSON.stringify(minted.body))
      const key = minted.body.key as string
      assert.equal((await call(doomed, '/api/v1/chat/completions', chat(key))).status, 200)
      const outboxRows = () =>
        store.db.selectFrom('observability_outbox').selectAll().where('destination_id', '=', destinationId).execute()
      const spilledBy = Date.now() + 10_000
      let spilled = await outboxRows()
      while (spilled.length === 0 && Date.now() < spilledBy) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        spilled = await outboxRows()
      }
      assert.equal(spilled.length, 1, 'the slow delivery is kept in the outbox')
      assert.notEqual(spilled[0]!.lease_owner, null, 'leased by the process that is sending it')
      doomed.child.kill('SIGKILL')
      await doomed.exited
      receiver.delayMs = 0
      const generationId = spilled[0]!.generation_id
      const deliveredBy = Date.now() + 15_000
      let delivered = 0
      while (Date.now() < deliveredBy) {
        const row = await store.db
          .selectFrom('observability_destinations')
          .select('delivered_count')
          .where('id', '=', destinationId)
          .executeTakeFirstOrThrow()
        delivered = Number(row.delivered_count)
        if (delivered === 1) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      assert.equal(delivered, 1, 'the surviving process delivered the record once its lease lapsed')
      const ids = receiver.requests.map((request) => JSON.parse(request.body.toString('utf8')).id as string)
      assert.deepEqual(
        ids,
        [generationId, generationId],
        'sent by the killed process (never answered), then again by the survivor',
      )
      assert.deepEqual(await outboxRows(), [])
    } finally {
      if (doomed.child.exitCode === null && doomed.child.signalCode === null) {
        doomed.child.kill('SIGKILL')
        await doomed.exited
      }
      await store.close()
      await receiver.close()
    }
  },
)
