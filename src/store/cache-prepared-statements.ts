// Kysely's SQLite driver prepares every query anew; preparing costs more than running the small
// statements of the hot path (generation records, ledger rows, outbox rows). This wraps the
// better-sqlite3 handle so each distinct SQL text is prepared once and reused. Kysely runs one query at
// a time per SQLite connection, so a cached statement is never in use twice. The cache is bounded:
// when full (multi-row inserts make many distinct texts) it starts over.
import type { SqliteDatabase, SqliteStatement } from 'kysely'

export function cachePreparedStatements(database: SqliteDatabase, limit = 500): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>()
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql)
      if (cached !== undefined) return cached
      if (statements.size >= limit) statements.clear()
      const statement = database.prepare(sql)
      statements.set(sql, statement)
      return statement
    },
  }
}
