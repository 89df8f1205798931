// Where the write-behind batches of the hot path (generation records, ledger rows) are committed. On a
// SQLite file they go to a worker thread with its own connection (`sqlite-write-worker.ts`), so the
// statements run off the event loop; on PostgreSQL, and on an in-memory SQLite store that no second
// connection can open, they run through the store's own Kysely instance, one transaction per commit.
import { CompiledQuery, type Kysely } from 'kysely'
import type { Database } from './database.ts'
import { RejectedRows } from './rejected-rows.ts'

/** One statement with positional parameters, in the store's own SQL dialect. */
export interface WriteStatement {
  readonly sql: string
  readonly parameters: readonly unknown[]
}

export interface WriteBehind {
  /** Runs the statements in one transaction: all of them are committed when it resolves, none if it rejects. */
  commit(statements: readonly WriteStatement[]): Promise<void>
  /** The rows `commitRows` set aside because the store refused them alone. */
  readonly rejectedRows: RejectedRows
  /** Releases what the writer holds (a worker and its connection) once the commits already asked for are done. */
  close(): Promise<void>
}

export function kyselyWriteBehind(db: Kysely<Database>): WriteBehind {
  const run = (executor: Pick<Kysely<Database>, 'executeQuery'>, statement: WriteStatement) =>
    executor.executeQuery(CompiledQuery.raw(statement.sql, [...statement.parameters]))
  return {
    rejectedRows: new RejectedRows(),
    async commit(statements) {
      if (statements.length === 0) return
      if (statements.length === 1) {
        await run(db, statements[0]!)
        return
      }
      await db.transaction().execute(async (transaction) => {
        for (const statement of statements) await run(transaction, statement)
      })
    },
    async close() {},
  }
}
