// A fresh, empty store per test: a temporary SQLite file, or a new PostgreSQL schema dropped afterwards; and the
// engines a store suite runs on, with a migrated store opened and closed around it.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { after, before } from 'node:test'
import pg from 'pg'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { postgresTarget } from './test-services.ts'

export interface TestDatabase {
  /** A DATABASE_URL for the fresh store. */
  readonly url: string
  /** The SQLite file path (null on PostgreSQL). */
  readonly sqlitePath: string | null
  readonly directory: string
  dispose(): Promise<void>
}

export function createSqliteDatabase(): TestDatabase {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-test-'))
  const sqlitePath = join(directory, 'switchyard.db')
  return {
    url: `sqlite:${sqlitePath}`,
    sqlitePath,
    directory,
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  }
}

export function createPostgresDatabase(baseUrl: string): TestDatabase {
  const schema = `sy_test_${randomBytes(6).toString('hex')}`
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-test-'))
  const url = new URL(baseUrl)
  url.searchParams.set('schema', schema)
  return {
    url: url.toString(),
    sqlitePath: null,
    directory,
    dispose: async () => {
      const client = new pg.Client({ connectionString: baseUrl })
      await client.connect()
      try {
        await client.query(`drop schema if exists ${schema} cascade`)
      } finally {
        await client.end()
      }
      rmSync(directory, { recursive: true, force: true })
    },
  }
}

/** A store a test suite runs on; `skip` says why PostgreSQL is not there. */
export interface StoreEngine {
  readonly name: string
  readonly skip: string | false
  create(): TestDatabase
}

/** SQLite always, and PostgreSQL where TEST_DATABASE_URL names one (skipped with the reason otherwise). */
export function storeEngines(): StoreEngine[] {
  const postgres = postgresTarget()
  return [
    { name: 'sqlite', skip: false, create: createSqliteDatabase },
    { name: 'postgres', skip: postgres.skip, create: () => createPostgresDatabase(postgres.url!) },
  ]
}

/**
 * In a `describe`: a fresh store of the engine, migrated (then given to `prepare`) before the suite's tests and
 * closed after them. The function returned gives the open store.
 */
export function useMigratedStore(engine: StoreEngine, prepare?: (store: Store) => Promise<void>): () => Store {
  let database: TestDatabase
  let store: Store
  before(async () => {
    database = engine.create()
    store = openStore(database.url)
    await migrateToLatest(store)
    await prepare?.(store)
  })
  after(async () => {
    await store.close()
    await database.dispose()
  })
  return () => store
}
