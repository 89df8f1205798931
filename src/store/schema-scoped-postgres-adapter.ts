// kysely's PostgreSQL adapter with the migration lock kept to one store. kysely's own adapter takes a
// session advisory lock with one fixed id for every migration run on the server, whatever the schema:
// every store of one PostgreSQL database (tests, one schema per tenant) then runs its migrations one at
// a time, and a gateway with nothing to migrate still queues behind whichever other store is creating
// its tables (seconds each under load; a start waited 20 s and more for other stores' migrations). This
// adapter keys the advisory lock on the store's schema, so instances of one store still migrate one at a
// time and other stores never wait for them.
import { PostgresAdapter, sql, type Kysely, type MigrationLockOptions } from 'kysely'

/** Wait at most this long for another instance of the same store to finish migrating (kysely's own bound). */
const lockTimeoutMs = 60 * 60 * 1000

/** The text the lock id is hashed from: the store's schema (named, or the search path's first). */
function migrationLockName(options: MigrationLockOptions): ReturnType<typeof sql<string>> {
  const schema = options.lockTableSchema === undefined ? sql`current_schema()` : sql`${options.lockTableSchema}`
  return sql<string>`'switchyard-migrations:' || ${schema}`
}

export class SchemaScopedPostgresAdapter extends PostgresAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>, options: MigrationLockOptions): Promise<void> {
    await sql`
      with set_timeout as (select set_config('lock_timeout', ${String(lockTimeoutMs)}, true) as config_value)
      select pg_advisory_lock(hashtextextended(${migrationLockName(options)}, 0)) from set_timeout`.execute(db)
  }

  override async releaseMigrationLock(db: Kysely<unknown>, options: MigrationLockOptions): Promise<void> {
    await sql`select pg_advisory_unlock(hashtextextended(${migrationLockName(options)}, 0))`.execute(db)
  }
}
