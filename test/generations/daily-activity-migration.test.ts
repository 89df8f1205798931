// Migration 0014 on both stores: records written before it are summed into the daily activity table,
// records written after it are added by the trigger, a duplicate id adds nothing, and down removes it all
// (up to 0014 only: migration 0018 removes the trigger).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { migrations } from '../../src/store/migrations/index.ts'
import type { GenerationRecord } from '../../src/generations/generation-record.ts'
import { createPostgresDatabase, createSqliteDatabase } from '../support/test-store.ts'
import { postgresTarget } from '../support/test-services.ts'
import { engines, rowBeforeResponseCache } from './records-fixture.ts'
import { migrationRecord, migratorFor } from './migration-record.fixture.ts'

function record(id: string, createdAt: string, endpointId: string, costNano: bigint): GenerationRecord {
  return migrationRecord(
    { id, createdAt, tokensPrompt: 3, tokensCompletion: 4, tokensReasoning: 1, costNano },
    endpointId,
  )
}

async function daily(store: Store) {
  return store.db
    .selectFrom('generation_daily_activity')
    .select(['day', 'endpoint_id', 'requests', 'prompt_tokens', 'usage_nano'])
    .orderBy('day')
    .orderBy('endpoint_id')
    .execute()
    .then((rows) =>
      rows.map((row) => [
        row.day,
        row.endpoint_id,
        Number(row.requests),
        Number(row.prompt_tokens),
        String(row.usage_nano),
      ]),
    )
}

/** The migration before the daily activity one: the store as it was before it. */
const names = Object.keys(migrations).sort()
const previous = names[names.indexOf('0014-daily-activity') - 1]!

for (const engine of engines(postgresTarget())) {
  test(
    `migration 0014 backfills, then the trigger keeps the daily table (${engine.name})`,
    { skip: engine.skip },
    async () => {
      const database = engine.url === undefined ? createSqliteDatabase() : createPostgresDatabase(engine.url)
      const store = openStore(database.url)
      try {
        const migrator = await migratorFor(store)
        assert.equal((await migrator.migrateTo(previous)).error, undefined)
        const before = [
          record('gen-a', '2026-11-01T01:00:00.000Z', 'e1', 5n),
          record('gen-b', '2026-11-01T23:00:00.000Z', 'e1', 7n),
          record('gen-c', '2026-11-02T00:00:00.000Z', 'e2', 11n),
        ]
        await store.db.insertInto('generations').values(before.map(rowBeforeResponseCache)).execute()
        assert.equal((await migrator.migrateTo('0014-daily-activity')).error, undefined)
        assert.deepEqual(await daily(store), [
          ['2026-11-01', 'e1', 2, 6, '12'],
          ['2026-11-02', 'e2', 1, 3, '11'],
        ])
        await store.db
          .insertInto('generations')
          .values(
            [
              record('gen-d', '2026-11-02T05:00:00.000Z', 'e2', 13n),
              record('gen-a', '2026-11-02T05:00:00.000Z', 'e2', 99n),
            ].map(rowBeforeResponseCache),
          )
          .onConflict((conflict) => conflict.column('id').doNothing())
          .execute()
        assert.deepEqual(await daily(store), [
          ['2026-11-01', 'e1', 2, 6, '12'],
          ['2026-11-02', 'e2', 2, 6, '24'],
        ])
        assert.equal((await migrator.migrateTo(previous)).error, undefined)
        await store.db
          .insertInto('generations')
          .values(rowBeforeResponseCache(record('gen-e', '2026-11-03T00:00:00.000Z', 'e3', 1n)))
          .execute()
        assert.equal((await migrator.migrateTo('0014-daily-activity')).error, undefined)
        assert.deepEqual((await daily(store)).at(-1), ['2026-11-03', 'e3', 1, 3, '1'])
      } finally {
        await store.close()
        await database.dispose()
      }
    },
  )
}
