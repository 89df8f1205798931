import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { createSqliteDatabase } from '../../test/support/test-store.ts'
import { openStore } from '../store/open-store.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { createLedgerRepository, type LedgerRow } from '../store/repositories/ledger-repository.ts'
import { rowsPerSlice } from '../store/batch-insert.ts'
import { GroupCommit } from '../store/group-commit.ts'
import { LedgerWriter } from './ledger-writer.ts'
import { formatUsd } from './format-usd.ts'
import { ledgerRow } from './ledger-row.fixture.ts'

function row(generation: string, attempt = 1, cost = '1000'): LedgerRow {
  return ledgerRow(generation, { attempt, cost_nano: cost })
}

test('the ledger writer (over the group commit) batches, keeps a failed batch for the next flush, never writes a row twice, and flushes on close', async () => {
  const database = createSqliteDatabase()
  const store = openStore(database.url)
  await migrateToLatest(store)
  const repository = createLedgerRepository(store.db, store.writes)
  const errors: unknown[] = []
  const commits = new GroupCommit(store.writes, { onError: (error) => errors.push(error), rowsPerCommit: 3 })
  const writer = new LedgerWriter(repository, commits)
  const count = async (): Promise<number> => (await store.db.selectFrom('ledger_entries').select('id').execute()).length

  writer.enqueue(row('a'))
  writer.enqueue(row('a'))
  assert.equal(writer.pendingCount, 1)
  await writer.flush()
  assert.equal(await count(), 1)

  await sql`alter table ledger_entries rename to ledger_entries_away`.execute(store.db)
  writer.enqueue(row('b'))
  writer.enqueue(row('c'))
  await writer.flush()
  assert.equal(errors.length, 1)
  assert.equal(writer.pendingCount, 2)
  await sql`alter table ledger_entries_away rename to ledger_entries`.execute(store.db)

  writer.enqueue(row('a'))
  for (const generation of ['d', 'e', 'f', 'g']) writer.enqueue(row(generation))
  await commits.close()
  assert.equal(writer.pendingCount, 0)
  assert.deepEqual(
    (await repository.page(null, 100)).map((entry) => entry.generation_id),
    ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
  )
  await store.close()
  await database.dispose()
})

test('formatUsd is exact with at least two decimals', () => {
  assert.equal(formatUsd(5_000_000_000n), '$5.00')
  assert.equal(formatUsd(1_234_567_890n), '$1.23456789')
  assert.equal(formatUsd(1n), '$0.000000001')
  assert.equal(formatUsd(-250_000_000n), '-$0.25')
})

test('a flush writes a row settled while it runs, between its slices', async () => {
  const database = createSqliteDatabase()
  const store = openStore(database.url)
  await migrateToLatest(store)
  const repository = createLedgerRepository(store.db, store.writes)
  const writer = new LedgerWriter(
    repository,
    new GroupCommit(store.writes, { onError: (error) => assert.fail(String(error)) }),
  )
  for (let index = 0; index < rowsPerSlice + 1; index++) writer.enqueue(row(`early-${index}`))
  const flushed = writer.flush()
  setImmediate(() => writer.enqueue(row('late')))
  await flushed
  assert.equal(writer.pendingCount, 0)
  assert.equal((await repository.page(null, 100)).length, rowsPerSlice + 2)
  await store.close()
  await database.dispose()
})
