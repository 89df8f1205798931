// Migration 0017 on both stores: the daily workspace totals start as the sums of the daily activity rows
// already there (several keys of one workspace summed, workspaces apart), then follow every insert,
// update (in place, and one that moves a row to another day and workspace) and delete of those rows,
// and down removes the table and its triggers (up to 0017 only: migration 0018 removes the triggers).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { migrations } from '../../src/store/migrations/index.ts'
import { toGenerationRow } from '../../src/generations/generation-row.ts'
import type { GenerationRecord } from '../../src/generations/generation-record.ts'
import { createPostgresDatabase, createSqliteDatabase } from '../support/test-store.ts'
import { postgresTarget } from '../support/test-services.ts'
import { engines } from './records-fixture.ts'
import { tokensRecord, migratorFor } from './migration-record.fixture.ts'

const record = tokensRecord

/** [day, workspace, requests, prompt tokens, usage, BYOK usage] per day and workspace, from the table. */
async function totals(store: Store) {
  const rows = await store.db
    .selectFrom('generation_daily_workspace_totals')
    .selectAll()
    .orderBy('day')
    .orderBy('workspace_id')
    .execute()
  return rows.map((row) => [
    row.day,
    row.workspace_id,
    Number(row.requests),
    Number(row.prompt_tokens),
    String(row.usage_nano),
    String(row.byok_usage_nano),
  ])
}

/** The same, summed from the daily activity rows of every key. */
async function summedActivity(store: Store) {
  const rows = await store.db
    .selectFrom('generation_daily_activity')
    .select(['day', 'workspace_id'])
    .select((eb) => [
      eb.fn.sum('requests').as('requests'),
      eb.fn.sum('prompt_tokens').as('prompt_tokens'),
      eb.fn.sum('usage_nano').as('usage_nano'),
      eb.fn.sum('byok_usage_nano').as('byok_usage_nano'),
    ])
    .groupBy(['day', 'workspace_id'])
    .orderBy('day')
    .orderBy('workspace_id')
    .execute()
  return rows.map((row) => [
    row.day,
    row.workspace_id,
    Number(row.requests),
    Number(row.prompt_tokens),
    String(row.usage_nano),
    String(row.byok_usage_nano),
  ])
}

const names = Object.keys(migrations).sort()
const previous = names[names.indexOf('0017-daily-workspace-totals') - 1]!

for (const engine of engines(postgresTarget())) {
  test(
    `migration 0017 backfills the daily workspace totals, then triggers keep them (${engine.name})`,
    { skip: engine.skip },
    async () => {
      const database = engine.url === undefined ? createSqliteDatabase() : createPostgresDatabase(engine.url)
      const store = openStore(database.url)
      const write = (records: GenerationRecord[]) =>
        store.db.insertInto('generations').values(records.map(toGenerationRow)).execute()
      try {
        const migrator = await migratorFor(store)
        assert.equal((await migrator.migrateTo(previous)).error, undefined)
        await write([
          record('gen-a', '2026-11-01', 'w1', 'k1', 1),
          record('gen-b', '2026-11-01', 'w1', 'k2', 2),
          record('gen-c', '2026-11-01', 'w2', 'k3', 4),
          record('gen-d', '2026-11-02', 'w1', 'byok', 8),
        ])
        assert.equal((await migrator.migrateTo('0017-daily-workspace-totals')).error, undefined)
        assert.deepEqual(await totals(store), [
          ['2026-11-01', 'w1', 2, 3, '30', '0'],
          ['2026-11-01', 'w2', 1, 4, '40', '0'],
          ['2026-11-02', 'w1', 1, 8, '0', '80'],
        ])
        // More records on existing daily rows (updates in place) and new daily rows (inserts).
        await write([
          record('gen-e', '2026-11-01', 'w1', 'k1', 16),
          record('gen-f', '2026-11-01', 'w3', 'k4', 32),
          record('gen-g', '2026-11-03', 'w2', 'k3', 64),
        ])
        assert.deepEqual(await totals(store), [
          ['2026-11-01', 'w1', 3, 19, '190', '0'],
          ['2026-11-01', 'w2', 1, 4, '40', '0'],
          ['2026-11-01', 'w3', 1, 32, '320', '0'],
          ['2026-11-02', 'w1', 1, 8, '0', '80'],
          ['2026-11-03', 'w2', 1, 64, '640', '0'],
        ])
        // An update that moves a row to another day and workspace, a delete, and an update in place.
        await sql`update generation_daily_activity set day = '2026-11-03', workspace_id = 'w2' where key_hash = 'k2'`.execute(
          store.db,
        )
        await store.db.deleteFrom('generation_daily_activity').where('workspace_id', '=', 'w3').execute()
        await sql`update generation_daily_activity set requests = requests + 5 where key_hash = 'k3'`.execute(store.db)
        assert.deepEqual(await totals(store), [
          ['2026-11-01', 'w1', 2, 17, '170', '0'],
          ['2026-11-01', 'w2', 6, 4, '40', '0'],
          ['2026-11-01', 'w3', 0, 0, '0', '0'],
          ['2026-11-02', 'w1', 1, 8, '0', '80'],
          ['2026-11-03', 'w2', 7, 66, '660', '0'],
        ])
        const nonZero = (rows: unknown[][]) => rows.filter((row) => row[2] !== 0)
        assert.deepEqual(nonZero(await totals(store)), await summedActivity(store))
        assert.equal((await migrator.migrateTo(previous)).error, undefined)
        await write([record('gen-h', '2026-11-03', 'w1', 'k1', 128)])
        assert.equal((await migrator.migrateTo('0017-daily-workspace-totals')).error, undefined)
        assert.deepEqual(await totals(store), await summedActivity(store))
      } finally {
        await store.close()
        await database.dispose()
      }
    },
  )
}
