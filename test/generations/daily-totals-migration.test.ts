// Migration 0015 on both stores: the daily totals start as the sums of the daily activity rows already
// there, then follow every insert, update and delete of those rows (records of several workspaces and
// keys written through the 0014 trigger), and down removes the table, its triggers and the key index
// (up to 0015 only: migration 0018 removes the triggers).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { migrations } from '../../src/store/migrations/index.ts'
import type { GenerationRecord } from '../../src/generations/generation-record.ts'
import { createPostgresDatabase, createSqliteDatabase } from '../support/test-store.ts'
import { postgresTarget } from '../support/test-services.ts'
import { engines, rowBeforeResponseCache } from './records-fixture.ts'
import { tokensRecord, migratorFor } from './migration-record.fixture.ts'

const record = tokensRecord

/** [day, requests, prompt tokens, usage, BYOK usage] per day, from the totals table. */
async function totals(store: Store) {
  const rows = await store.db.selectFrom('generation_daily_totals').selectAll().orderBy('day').execute()
  return rows.map((row) => [
    row.day,
    Number(row.requests),
    Number(row.prompt_tokens),
    String(row.usage_nano),
    String(row.byok_usage_nano),
  ])
}

/** The same, summed from the daily activity rows of every workspace and key. */
async function summedActivity(store: Store) {
  const rows = await store.db
    .selectFrom('generation_daily_activity')
    .select(['day'])
    .select((eb) => [
      eb.fn.sum('requests').as('requests'),
      eb.fn.sum('prompt_tokens').as('prompt_tokens'),
      eb.fn.sum('usage_nano').as('usage_nano'),
      eb.fn.sum('byok_usage_nano').as('byok_usage_nano'),
    ])
    .groupBy('day')
    .orderBy('day')
    .execute()
  return rows.map((row) => [
    row.day,
    Number(row.requests),
    Number(row.prompt_tokens),
    String(row.usage_nano),
    String(row.byok_usage_nano),
  ])
}

const names = Object.keys(migrations).sort()
const previous = names[names.indexOf('0015-daily-activity-totals') - 1]!

for (const engine of engines(postgresTarget())) {
  test(
    `migration 0015 backfills the daily totals, then triggers keep them (${engine.name})`,
    { skip: engine.skip },
    async () => {
      const database = engine.url === undefined ? createSqliteDatabase() : createPostgresDatabase(engine.url)
      const store = openStore(database.url)
      // Written before migration 0016, which adds response_cache_source_id.
      const write = (records: GenerationRecord[]) =>
        store.db.insertInto('generations').values(records.map(rowBeforeResponseCache)).execute()
      try {
        const migrator = await migratorFor(store)
        assert.equal((await migrator.migrateTo(previous)).error, undefined)
        await write([
          record('gen-a', '2026-11-01', 'w1', 'k1', 1),
          record('gen-b', '2026-11-01', 'w2', 'k2', 2),
          record('gen-c', '2026-11-02', 'w1', 'byok', 4),
        ])
        assert.equal((await migrator.migrateTo('0015-daily-activity-totals')).error, undefined)
        assert.deepEqual(await totals(store), [
          ['2026-11-01', 2, 3, '30', '0'],
          ['2026-11-02', 1, 4, '0', '40'],
        ])
        // New daily rows (inserts) and more records on existing ones (updates), in several workspaces.
        await write([
          record('gen-d', '2026-11-01', 'w1', 'k1', 8),
          record('gen-e', '2026-11-01', 'w3', 'k3', 16),
          record('gen-f', '2026-11-03', 'w2', 'k2', 32),
        ])
        assert.deepEqual(await totals(store), [
          ['2026-11-01', 4, 27, '270', '0'],
          ['2026-11-02', 1, 4, '0', '40'],
          ['2026-11-03', 1, 32, '320', '0'],
        ])
        assert.deepEqual(await totals(store), await summedActivity(store))
        await store.db.deleteFrom('generation_daily_activity').where('workspace_id', '=', 'w3').execute()
        await sql`update generation_daily_activity set requests = requests + 5 where key_hash = 'k2'`.execute(store.db)
        assert.deepEqual(await totals(store), await summedActivity(store))
        assert.deepEqual((await totals(store))[0], ['2026-11-01', 8, 11, '110', '0'])
        assert.equal((await migrator.migrateTo(previous)).error, undefined)
        await write([record('gen-g', '2026-11-03', 'w1', 'k1', 64)])
        assert.equal((await migrator.migrateTo('0015-daily-activity-totals')).error, undefined)
        assert.deepEqual(await totals(store), await summedActivity(store))
      } finally {
        await store.close()
        await database.dispose()
      }
    },
  )
}
