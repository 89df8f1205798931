// Runs the migrations to the latest version. Safe to call at every start-up and from `switchyard migrate`.
import { Migrator, sql, type MigrationResult } from 'kysely'
import type { Store } from './open-store.ts'
import { migrations } from './migrations/index.ts'

export interface MigrationReport {
  readonly applied: readonly string[]
}

export async function migrateToLatest(store: Store): Promise<MigrationReport> {
  if (store.schema !== null) await sql`create schema if not exists ${sql.id(store.schema)}`.execute(store.db)
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => ({ ...migrations }) },
    // Without it kysely finds its lock table in any schema (another test's) and skips creating its own.
    ...(store.schema === null ? {} : { migrationTableSchema: store.schema }),
  })
  const { error, results } = await migrator.migrateToLatest()
  const failed = results?.find((result: MigrationResult) => result.status === 'Error')
  if (error !== undefined) {
    const name = failed?.migrationName ?? 'unknown'
    throw new Error(`migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
  return { applied: (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName) }
}
