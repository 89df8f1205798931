// A fresh, empty store per test: a temporary SQLite file, or a new PostgreSQL schema dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'

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
