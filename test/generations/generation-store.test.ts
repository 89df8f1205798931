// GenerationStore over the group commit on SQLite: records are readable while pending, a flush writes
// each record with its content, a large flush is committed a slice at a time without holding up other
// store calls, and a slice that fails stays pending for the next flush.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { rowsPerSlice } from '../../src/store/batch-insert.ts'
import { GenerationStore } from '../../src/generations/generation-store.ts'
import { GroupCommit } from '../../src/store/group-commit.ts'
import type { GenerationContent, GenerationRecord } from '../../src/generations/generation-record.ts'
import { createSqliteDatabase, type TestDatabase } from '../support/test-store.ts'

let database: TestDatabase
let store: Store

before(async () => {
  database = createSqliteDatabase()
  store = openStore(database.url)
  await migrateToLatest(store)
})
after(async () => {
  await store.close()
  await database.dispose()
})

function record(id: string): GenerationRecord {
  return {
    id,
    requestId: `req-${id}`,
    organizationId: 'org',
    workspaceId: 'ws',
    keyHash: 'k'.repeat(64),
    apiType: 'completions',
    dialect: 'openai-chat',
    model: 'acme/model',
    provider: 'acme',
    upstreamModelId: 'model-1',
    upstreamId: `up-${id}`,
    streamed: false,
    cancelled: false,
    status: 'completed',
    finishReason: 'stop',
    nativeFinishReason: 'stop',
    tokensPrompt: 3,
    tokensCompletion: 5,
    tokensCached: 0,
    tokensReasoning: 0,
    costNano: 1_234n,
    unbilledExcessNano: 250n,
    responseCacheSourceId: null,
    isByok: false,
    latencyMs: 10,
    generationTimeMs: 12,
    sessionId: null,
    endUser: null,
    preset: null,
    serviceTier: null,
    attempts: [],
    errorStatus: null,
    errorMessage: null,
    httpReferer: null,
    userAgent: null,
    createdAt: '2026-11-22T12:00:00.000Z',
  }
}

const content = (id: string): GenerationContent => ({
  input: { messages: [{ role: 'user', content: `question ${id}` }] },
  completion: `answer ${id}`,
  reasoning: null,
  error: null,
})

async function storedCount(prefix: string): Promise<number> {
  const row = await store.db
    .selectFrom('generations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('id', 'like', `${prefix}%`)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

test('a pending record is readable at once; a flush writes it with its content', async () => {
  const generations = new GenerationStore(
    store.db,
    new GroupCommit(store.writes, { onError: (error) => assert.fail(String(error)) }),
  )
  generations.add(record('gen-a'), content('gen-a'))
  assert.deepEqual(await generations.find('gen-a'), { record: record('gen-a'), content: content('gen-a') })
  assert.equal(await storedCount('gen-a'), 0)
  await generations.flush()
  assert.equal(await storedCount('gen-a'), 1)
  assert.deepEqual(await generations.find('gen-a'), { record: record('gen-a'), content: content('gen-a') })
})

test('a large flush is committed a slice at a time, and a read meanwhile does not wait for it', async () => {
  const generations = new GenerationStore(
    store.db,
    new GroupCommit(store.writes, { onError: (error) => assert.fail(String(error)), rowsPerCommit: rowsPerSlice }),
  )
  const total = rowsPerSlice * 6
  for (let index = 0; index < total; index++) generations.add(record(`gen-b-${index}`), content(`gen-b-${index}`))
  const order: string[] = []
  const flushed = generations.flush().then(() => order.push('flush done'))
  const seen = await new Promise<number>((resolve) => setImmediate(() => void storedCount('gen-b-').then(resolve)))
  order.push('read done')
  await flushed
  assert.deepEqual(order, ['read done', 'flush done'], 'the read did not wait for the whole flush')
  assert.ok(seen < total, `the read saw the flush part-way (${seen} of ${total})`)
  assert.equal(seen % rowsPerSlice, 0, 'whole slices only: a record and its content are written together')
  assert.equal(await storedCount('gen-b-'), total)
  const contents = await store.db
    .selectFrom('generation_contents')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('generation_id', 'like', 'gen-b-%')
    .executeTakeFirstOrThrow()
  assert.equal(Number(contents.count), total)
})

test('a slice that fails stays pending and is written by the next flush', async () => {
  const errors: unknown[] = []
  const generations = new GenerationStore(
    store.db,
    new GroupCommit(store.writes, { onError: (error) => errors.push(error) }),
  )
  generations.add(record('gen-c-1'), content('gen-c-1'))
  await sql`alter table generation_contents rename to generation_contents_away`.execute(store.db)
  await generations.flush()
  await sql`alter table generation_contents_away rename to generation_contents`.execute(store.db)
  assert.equal(errors.length, 1)
  assert.equal(await storedCount('gen-c-'), 0, 'the record and its content are written together or not at all')
  assert.equal((await generations.find('gen-c-1'))?.record.id, 'gen-c-1', 'still readable from memory')
  await generations.flush()
  assert.equal(await storedCount('gen-c-'), 1)
})
