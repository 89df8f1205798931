// Stores in sibling PostgreSQL schemas of one database: migrations start while other schemas are created
// and dropped (as tests and schema-per-tenant deployments do), and introspection sees only the store's
// own schema (or the search path's first), so another schema's migration tables never pass for this
// store's.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import pg from 'pg'
import { openStore } from '../../src/store/open-store.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { migrations } from '../../src/store/migrations/index.ts'
import { createPostgresDatabase } from '../support/test-store.ts'
import { postgresTarget } from '../support/test-services.ts'

const postgres = postgresTarget()

/** Creates and drops schemas holding a serial-keyed table until `stop` resolves. */
async function churnSchemas(url: string, prefix: string, stop: Promise<void>): Promise<number> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  let stopped = false
  void stop.then(() => (stopped = true))
  let rounds = 0
  try {
    while (!stopped) {
      const schema = `${prefix}_${rounds}`
      await client.query(`create schema ${schema}`)
      await client.query(`create table ${schema}.churn (id serial primary key, note text)`)
      await client.query(`drop schema ${schema} cascade`)
      rounds += 1
    }
  } finally {
    await client.end()
  }
  return rounds
}

test('migrations succeed while sibling schemas are created and dropped', { skip: postgres.skip }, async () => {
  let release!: () => void
  const stop = new Promise<void>((resolve) => (release = resolve))
  const prefix = `sy_churn_${process.pid}`
  const churners = [churnSchemas(postgres.url!, `${prefix}_a`, stop), churnSchemas(postgres.url!, `${prefix}_b`, stop)]
  try {
    for (let round = 0; round < 12; round += 1) {
      const database = createPostgresDatabase(postgres.url!)
      const store = openStore(database.url)
      try {
        const report = await migrateToLatest(store)
        assert.equal(report.applied.length, Object.keys(migrations).length)
      } finally {
        await store.close()
        await database.dispose()
      }
    }
  } finally {
    release()
    const rounds = await Promise.all(churners)
    assert.ok(
      rounds.every((count) => count > 0),
      'the sibling schemas churned while the stores migrated',
    )
  }
})

test(
  "introspection lists the store's own tables only, another schema's migration tables excluded",
  { skip: postgres.skip },
  async () => {
    const first = createPostgresDatabase(postgres.url!)
    const second = createPostgresDatabase(postgres.url!)
    const migrated = openStore(first.url)
    const empty = openStore(second.url)
    try {
      await migrateToLatest(migrated)
      const ownTables = await migrated.db.introspection.getTables({ withInternalKyselyTables: true })
      assert.ok(ownTables.length > 2 && ownTables.every((table) => table.schema === migrated.schema))
      const ledger = ownTables.find((table) => table.name === 'ledger_entries')
      assert.ok(ledger?.columns.some((column) => column.name === 'cost_nano' && !column.isNullable))
      assert.equal(
        (await migrated.db.introspection.getTables()).some((table) => table.name === 'kysely_migration'),
        false,
      )
      await empty.db.schema.createSchema(empty.schema!).ifNotExists().execute()
      assert.deepEqual(await empty.db.introspection.getTables({ withInternalKyselyTables: true }), [])
      await migrateToLatest(empty)
      const names = (await empty.db.introspection.getTables({ withInternalKyselyTables: true })).map(
        (table) => table.name,
      )
      assert.ok(names.includes('kysely_migration') && names.includes('ledger_entries'))
    } finally {
      await migrated.close()
      await empty.close()
      await first.dispose()
      await second.dispose()
    }
  },
)

test('without ?schema= introspection reads the first schema of the search path', { skip: postgres.skip }, async () => {
  const table = `sy_probe_${process.pid}_${Date.now()}`
  const client = new pg.Client({ connectionString: postgres.url! })
  await client.connect()
  const store = openStore(postgres.url!)
  try {
    await client.query(`create table public.${table} (id serial primary key, note text)`)
    assert.equal(store.schema, null)
    const tables = await store.db.introspection.getTables()
    assert.ok(tables.every((found) => found.schema === 'public'))
    const probe = tables.find((found) => found.name === table)
    assert.deepEqual(
      probe?.columns.map((column) => [column.name, column.isAutoIncrementing, column.isNullable]),
      [
        ['id', true, false],
        ['note', false, true],
      ],
    )
  } finally {
    await client.query(`drop table if exists public.${table}`)
    await client.end()
    await store.close()
  }
})
