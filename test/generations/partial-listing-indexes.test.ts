// Migration 0019 on both stores: the listing indexes on end_user and session_id hold only the records
// that have one, a listing filtered by either still reads its index (the planner proves that the filter
// leaves nulls out), and down brings back the full indexes.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { CompiledQuery, createQueryId, sql, type KyselyPlugin, type RootOperationNode } from 'kysely'
import { listGenerations, type GenerationFilter } from '../../src/generations/list-generations.ts'
import { toGenerationRow } from '../../src/generations/generation-row.ts'
import type { Store } from '../../src/store/open-store.ts'
import { storeEngines, useMigratedStore } from '../support/test-store.ts'
import { migrationRecord, migratorFor } from './migration-record.fixture.ts'

const indexes = { endUser: 'generations_end_user_listing', sessionId: 'generations_session_listing' } as const

/** The engine's plan for the query `listGenerations` sends for this filter, as text. */
async function listingPlan(store: Store, filter: Omit<GenerationFilter, 'organizationId'>): Promise<string> {
  let node: RootOperationNode | undefined
  const capture: KyselyPlugin = {
    transformQuery: (args) => (node = args.node),
    transformResult: async (args) => args.result,
  }
  await listGenerations(store.db.withPlugin(capture), { organizationId: 'org', ...filter }, null, 20)
  const query = store.db.getExecutor().compileQuery(node!, createQueryId())
  const explain = store.engine === 'sqlite' ? 'explain query plan ' : 'explain '
  const { rows } = await store.db.executeQuery(CompiledQuery.raw(explain + query.sql, [...query.parameters]))
  return JSON.stringify(rows)
}

/** How many records an index holds, as the engine's statistics count them after ANALYZE. */
async function indexedRows(store: Store, name: string): Promise<number> {
  if (store.engine === 'sqlite') {
    await sql`analyze`.execute(store.db)
    const { rows } = await sql<{ stat: string }>`select stat from sqlite_stat1 where idx = ${name}`.execute(store.db)
    return Number(rows[0]!.stat.split(' ')[0])
  }
  await sql`analyze generations`.execute(store.db)
  const { rows } = await sql<{ tuples: number }>`select reltuples as tuples from pg_class where relname = ${name}
    and relnamespace = (select oid from pg_namespace where nspname = current_schema())`.execute(store.db)
  return Number(rows[0]!.tuples)
}

for (const engine of storeEngines()) {
  describe(`the end-user and session listing indexes (${engine.name})`, { skip: engine.skip }, () => {
    const store = useMigratedStore(engine, async (store) => {
      const rows = Array.from({ length: 300 }, (_, index) =>
        toGenerationRow(
          migrationRecord({
            id: `gen-${String(index).padStart(4, '0')}`,
            createdAt: new Date(Date.UTC(2026, 10, 20, 10, 0, index)).toISOString(),
            ...(index % 30 === 0 ? { endUser: `user-${index % 4}` } : {}),
            ...(index % 50 === 0 ? { sessionId: `session-${index % 3}` } : {}),
          }),
        ),
      )
      for (let start = 0; start < rows.length; start += 50)
        await store.db
          .insertInto('generations')
          .values(rows.slice(start, start + 50))
          .execute()
    })

    test('hold only the records that have an end user or a session', async () => {
      assert.equal(await indexedRows(store(), indexes.endUser), 10)
      assert.equal(await indexedRows(store(), indexes.sessionId), 6)
    })

    test('a listing filtered by end user or session reads its index, and finds the records', async () => {
      await (store().engine === 'sqlite' ? sql`analyze` : sql`analyze generations`).execute(store().db)
      assert.match(await listingPlan(store(), { endUser: 'user-0' }), new RegExp(indexes.endUser))
      assert.match(await listingPlan(store(), { sessionId: 'session-0' }), new RegExp(indexes.sessionId))
      const byUser = await listGenerations(store().db, { organizationId: 'org', endUser: 'user-2' }, null, 20)
      assert.deepEqual(
        byUser.map((record) => record.id),
        ['gen-0270', 'gen-0210', 'gen-0150', 'gen-0090', 'gen-0030'],
      )
      const bySession = await listGenerations(store().db, { organizationId: 'org', sessionId: 'session-1' }, null, 20)
      assert.deepEqual(
        bySession.map((record) => record.id),
        ['gen-0250', 'gen-0100'],
      )
    })

    test('down brings back the indexes of every record, and up the partial ones', async () => {
      const migrator = await migratorFor(store())
      assert.equal((await migrator.migrateTo('0018-activity-rollup-in-commit')).error, undefined)
      assert.equal(await indexedRows(store(), indexes.endUser), 300)
      assert.equal((await migrator.migrateToLatest()).error, undefined)
      assert.equal(await indexedRows(store(), indexes.sessionId), 6)
    })
  })
}
