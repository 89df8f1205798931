// Migration 0018 on both stores: it removes the triggers that kept the daily activity tables (a record
// inserted by hand adds nothing, one written through the generation store's group commit is summed),
// and down puts them back with every table summed anew from the stored records.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { GenerationStore } from '../../src/generations/generation-store.ts'
import { GroupCommit } from '../../src/store/group-commit.ts'
import { toGenerationRow } from '../../src/generations/generation-row.ts'
import type { GenerationRecord } from '../../src/generations/generation-record.ts'
import { createPostgresDatabase, createSqliteDatabase } from '../support/test-store.ts'
import { postgresTarget } from '../support/test-services.ts'
import { engines } from './records-fixture.ts'
import { tokensRecord, migratorFor } from './migration-record.fixture.ts'

function record(id: string, day: string, workspaceId: string, promptTokens: number): GenerationRecord {
  return tokensRecord(id, day, workspaceId, `key-${workspaceId}`, promptTokens)
}

const tables = ['generation_daily_activity', 'generation_daily_totals', 'generation_daily_workspace_totals'] as const

/** [day, requests, prompt tokens, usage] per day, summed from each daily table and from the records. */
async function perDay(store: Store): Promise<Record<string, string[][]>> {
  const sums: Record<string, string[][]> = {}
  const text = (rows: Record<string, unknown>[]) =>
    rows.map((row) => [String(row.day), String(row.requests), String(row.prompt), String(row.usage)])
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select day, sum(requests) as requests,
      sum(prompt_tokens) as prompt, sum(usage_nano) as usage from ${sql.table(table)} group by day order by day`.execute(
      store.db,
    )
    sums[table] = text(rows)
  }
  const { rows } = await sql<Record<string, unknown>>`select substr(created_at, 1, 10) as day, count(*) as requests,
    sum(tokens_prompt) as prompt, sum(cast(cost_nano as bigint)) as usage from generations
    group by substr(created_at, 1, 10) order by day`.execute(store.db)
  sums.records = text(rows)
  return sums
}

function expectEveryTable(sums: Record<string, string[][]>, expected: string[][]): void {
  for (const table of [...tables, 'records']) assert.deepEqual(sums[table], expected, table)
}

for (const engine of engines(postgresTarget())) {
  test(
    `migration 0018 hands the daily tables to the group commit, and down back to triggers (${engine.name})`,
    { skip: engine.skip },
    async () => {
      const database = engine.url === undefined ? createSqliteDatabase() : createPostgresDatabase(engine.url)
      const store = openStore(database.url)
      const insert = (value: GenerationRecord) =>
        store.db.insertInto('generations').values(toGenerationRow(value)).execute()
      try {
        const migrator = await migratorFor(store)
        assert.equal((await migrator.migrateTo('0017-daily-workspace-totals')).error, undefined)
        await insert(record('gen-a', '2026-11-01', 'w1', 1))
        expectEveryTable(await perDay(store), [['2026-11-01', '1', '1', '10']])

        assert.equal((await migrator.migrateTo('0018-activity-rollup-in-commit')).error, undefined)
        await insert(record('gen-b', '2026-11-01', 'w2', 2))
        const afterHandInsert = await perDay(store)
        for (const table of tables) assert.deepEqual(afterHandInsert[table], [['2026-11-01', '1', '1', '10']], table)
        const commits = new GroupCommit(store.writes, { onError: (error) => assert.fail(String(error)) })
        const generations = new GenerationStore(store.db, commits)
        generations.add(record('gen-c', '2026-11-02', 'w1', 4), null)
        await generations.flush()
        const afterCommit = await perDay(store)
        for (const table of tables)
          assert.deepEqual(
            afterCommit[table],
            [
              ['2026-11-01', '1', '1', '10'],
              ['2026-11-02', '1', '4', '40'],
            ],
            table,
          )

        assert.equal((await migrator.migrateTo('0017-daily-workspace-totals')).error, undefined)
        expectEveryTable(await perDay(store), [
          ['2026-11-01', '2', '3', '30'],
          ['2026-11-02', '1', '4', '40'],
        ])
        await insert(record('gen-d', '2026-11-02', 'w2', 8))
        expectEveryTable(await perDay(store), [
          ['2026-11-01', '2', '3', '30'],
          ['2026-11-02', '2', '12', '120'],
        ])
      } finally {
        await store.close()
        await database.dispose()
      }
    },
  )
}
