// Opens the store named by DATABASE_URL: SQLite (better-sqlite3, WAL, foreign keys on) or PostgreSQL.
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SqliteDatabase from 'better-sqlite3'
import pg from 'pg'
import { Kysely, sql } from 'kysely'
import { cachePreparedStatements } from './cache-prepared-statements.ts'
import type { Database } from './database.ts'
import { ImmediateSqliteDialect } from './immediate-sqlite-dialect.ts'
import { fallbackAutoCheckpointPages, startCheckpointer } from './sqlite-checkpointer.ts'
import { SchemaScopedPostgresDialect } from './schema-scoped-introspector.ts'
import { SqliteWriteWorker } from './sqlite-write-worker.ts'
import { withStorableText } from './storable-text-dialect.ts'
import { kyselyWriteBehind, type WriteBehind } from './write-behind.ts'

export type StoreEngine = 'sqlite' | 'postgres'

export interface Store {
  readonly db: Kysely<Database>
  readonly engine: StoreEngine
  /** PostgreSQL schema the store lives in, when one was named (`?schema=` in the URL). */
  readonly schema: string | null
  /** Commits the write-behind batches (generation records, ledger rows, delivered counts): off the event loop on a SQLite file. */
  readonly writes: WriteBehind
  /** Resolves when the store answers a trivial query. */
  ping(): Promise<void>
  close(): Promise<void>
}

export interface OpenStoreOptions {
  /** PostgreSQL only: a schema to create and use (tests isolate themselves this way); also `?schema=` in the URL. */
  readonly schema?: string
  readonly poolSize?: number
}

export function openStore(url: string, options: OpenStoreOptions = {}): Store {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length))
  if (/^postgres(?:ql)?:\/\//.test(url)) return openPostgres(url, options)
  throw new Error(`unsupported DATABASE_URL "${url}": use sqlite:<path> or postgres://...`)
}

/** Every connection to a SQLite store runs these (the main one, and the write worker's). */
const sqliteConnectionPragmas = [
  'foreign_keys = ON',
  'busy_timeout = 5000',
  'synchronous = NORMAL',
  `wal_autocheckpoint = ${fallbackAutoCheckpointPages}`,
]

function openSqlite(path: string): Store {
  const inMemory = path === ':memory:'
  if (!inMemory) mkdirSync(dirname(path), { recursive: true })
  const database = new SqliteDatabase(path)
  database.pragma('journal_mode = WAL')
  for (const pragma of sqliteConnectionPragmas) database.pragma(pragma)
  const checkpointer = inMemory ? null : startCheckpointer(path)
  const db = new Kysely<Database>({
    dialect: withStorableText(new ImmediateSqliteDialect({ database: cachePreparedStatements(database) })),
  })
  const writes = inMemory ? kyselyWriteBehind(db) : new SqliteWriteWorker(path, { pragmas: sqliteConnectionPragmas })
  return {
    db,
    engine: 'sqlite',
    schema: null,
    writes,
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    close: async () => {
      await writes.close()
      await checkpointer?.close()
      await db.destroy()
    },
  }
}

function openPostgres(url: string, options: OpenStoreOptions): Store {
  const parsed = new URL(url)
  const schema = options.schema ?? parsed.searchParams.get('schema') ?? undefined
  parsed.searchParams.delete('schema')
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new Error(`invalid PostgreSQL schema name "${schema}"`)
  const pool = new pg.Pool({
    connectionString: parsed.toString(),
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  })
  // Keep an idle client's network error from crashing the process; the next query reports it.
  pool.on('error', () => undefined)
  // pg-pool drops its error listener while a client is checked out, so a connection lost mid-query
  // would be an uncaught 'error' event that ends the process; the query itself still rejects.
  pool.on('connect', (client) => client.on('error', () => undefined))
  const db = new Kysely<Database>({
    dialect: withStorableText(new SchemaScopedPostgresDialect({ pool }, schema ?? null)),
  })
  return {
    db,
    engine: 'postgres',
    schema: schema ?? null,
    writes: kyselyWriteBehind(db),
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    close: () => db.destroy(),
  }
}
