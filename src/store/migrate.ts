// Runs the migrations to the latest version. Safe to call at every start-up and from `switchyard migrate`.
// `migrateStoreTo` moves a store to a named migration, down as well as up (the listing benchmark seeds
// a store before the listing indexes and the activity table exist, as an upgrade would find it).
import { Migrator, sql, type MigrationResult, type MigrationResultSet } from 'kysely'
import type { Store } from './open-store.ts'
import { migrations } from './migrations/index.ts'

export interface MigrationReport {
  readonly applied: readonly string[]
}

export async function migrateToLatest(store: Store): Promise<MigrationReport> {
  return migrate(store, (migrator) => migrator.migrateToLatest())
}

/** Runs the migrations up or down until `name` is the last one applied. */
export async function migrateStoreTo(store: Store, name: string): Promise<MigrationReport> {
  if (!(name in migrations)) throw new Error(`no migration is named ${name}`)
  return migrate(store, (migrator) => migrator.migrateTo(name))
}

async function migrate(
  store: Store,
  run: (migrator: Migrator) => Promise<MigrationResultSet>,
): Promise<MigrationReport> {
  if (store.schema !== null) await createSchema(store, store.schema)
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => ({ ...migrations }) },
    // Areas number their migrations independently; a store that ran a later number first still takes
    // an earlier one that arrives afterwards.
    allowUnorderedMigrations: true,
    // Without it kysely finds its tables in any schema, so stores in sibling schemas race at start.
    ...(store.schema !== null ? { migrationTableSchema: store.schema } : {}),
  })
  const { error, results } = await run(migrator)
  const failed = results?.find((result: MigrationResult) => result.status === 'Error')
  if (error !== undefined) {
    const message = error instanceof Error ? error.message : String(error)
    if (failed !== undefined) throw new Error(`migration ${failed.migrationName} failed: ${message}`, { cause: error })
    const next = await nextPending(migrator)
    throw new Error(`the migrations could not run${next === null ? '' : ` (next to apply: ${next})`}: ${message}`, {
      cause: error,
    })
  }
  return {
    applied: (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName),
  }
}

/**
 * Creates the store's schema unless it exists. Two instances starting at once on a new schema both run
 * `create schema if not exists`, and PostgreSQL fails the one that loses the race with a duplicate key
 * on pg_namespace instead of skipping it: that failure is ignored once the schema is there.
 */
async function createSchema(store: Store, schema: string): Promise<void> {
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(store.db)
  } catch (error) {
    const found = await sql<{ found: number }>`select 1 as found from pg_namespace where nspname = ${schema}`.execute(
      store.db,
    )
    if (found.rows.length === 0) throw error
  }
}

/**
 * The first migration not applied yet, to name in an error that came before any migration ran (the
 * store unreachable, a missing migration): null when none is pending or the list cannot be read.
 */
async function nextPending(migrator: Migrator): Promise<string | null> {
  try {
    return (await migrator.getMigrations()).find((migration) => migration.executedAt === undefined)?.name ?? null
  } catch {
    return null
  }
}
