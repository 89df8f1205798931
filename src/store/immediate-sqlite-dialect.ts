// Kysely's SQLite dialect with one change: a transaction begins IMMEDIATE (it takes the write lock at
// once) instead of DEFERRED. The main connection shares the file with the write worker
// (sqlite-write-worker.ts). A deferred transaction that reads first holds a snapshot, and if the worker
// commits before the transaction's first write, that write cannot upgrade the snapshot: SQLite fails it
// at once with SQLITE_BUSY_SNAPSHOT, without the busy handler's wait, and a management call (assigning
// a guardrail, say) answered 500. Beginning immediate makes the transaction wait in the busy handler
// for a worker commit in progress, and the worker wait for the transaction.
import { CompiledQuery, SqliteDialect, SqliteDriver } from 'kysely'
import type { DatabaseConnection, Driver, SqliteDialectConfig } from 'kysely'

class ImmediateTransactionDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig

  constructor(config: SqliteDialectConfig) {
    super(config)
    this.#config = config
  }

  override createDriver(): Driver {
    return new ImmediateTransactionDriver(this.#config)
  }
}
