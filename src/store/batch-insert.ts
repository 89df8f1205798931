// Multi-row inserts for the write-behind batches of the hot path (generation records, ledger rows,
// outbox rows). Building a Kysely insert for N rows walks N x columns value nodes and compiles a fresh
// SQL text, and every distinct text is a fresh prepared statement on SQLite. Here rows are written in
// chunks of a few fixed sizes, and each (table, columns, chunk size) is compiled by Kysely once, so
// the dialect's own SQL is reused with new parameters and SQLite reuses its prepared statement.
// better-sqlite3 runs each statement synchronously on the event loop, so between chunks the insert
// yields to it: a flush of a few hundred rows becomes short steps (a chunk of 16 generation rows is a
// fraction of a millisecond) between which requests go on, instead of one stall of several
// milliseconds that every request arriving meanwhile waits out. Inside a transaction other store
// calls wait for the connection meanwhile, as they waited for the whole flush before.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import { CompiledQuery, type Kysely } from 'kysely'
import type { Database } from './database.ts'

/** Chunk sizes, largest first; a batch of 150 rows is written as 9 x 16 + 4 + 1 + 1. */
const chunkSizes = [16, 4, 1] as const

type TableName = keyof Database & string
type Executor = Pick<Kysely<Database>, 'executeQuery'>

export interface BatchInsertOptions {
  /** `ON CONFLICT (<columns>) DO NOTHING`: rows that already exist are skipped. */
  readonly skipConflictsOn?: readonly string[]
}

export class BatchInsert<Row extends object> {
  readonly #db: Kysely<Database>
  readonly #table: TableName
  readonly #options: BatchInsertOptions
  readonly #texts = new Map<string, string>()

  constructor(db: Kysely<Database>, table: TableName, options: BatchInsertOptions = {}) {
    this.#db = db
    this.#table = table
    this.#options = options
  }

  /** Inserts every row (all rows must have the same columns) through `executor`, e.g. a transaction. */
  async insert(rows: readonly Row[], executor: Executor = this.#db): Promise<void> {
    if (rows.length === 0) return
    const columns = Object.keys(rows[0]!)
    let offset = 0
    for (const size of chunkSizes) {
      while (rows.length - offset >= size) {
        if (offset > 0) await yieldToEventLoop()
        const chunk = rows.slice(offset, offset + size)
        await executor.executeQuery(CompiledQuery.raw(this.#text(columns, size), parametersOf(chunk, columns)))
        offset += size
      }
    }
  }

  #text(columns: readonly string[], size: number): string {
    const cacheKey = `${size}:${columns.join(',')}`
    let text = this.#texts.get(cacheKey)
    if (text === undefined) {
      text = this.#compile(columns, size)
      this.#texts.set(cacheKey, text)
    }
    return text
  }

  /** Kysely compiles a template of `size` rows whose every value is a parameter. */
  #compile(columns: readonly string[], size: number): string {
    const template = Object.fromEntries(columns.map((column) => [column, 'x']))
    // The table's row type is not known here; the template only has to name the columns.
    const values = Array.from({ length: size }, () => template) as never
    let query = this.#db.insertInto(this.#table).values(values)
    const conflict = this.#options.skipConflictsOn
    if (conflict !== undefined) query = query.onConflict((builder) => builder.columns(conflict as never).doNothing())
    const compiled = query.compile()
    if (compiled.parameters.length !== size * columns.length) {
      throw new Error(`batch insert into ${this.#table}: expected ${size * columns.length} parameters, Kysely compiled ${compiled.parameters.length}`)
    }
    return compiled.sql
  }
}

function parametersOf(rows: readonly object[], columns: readonly string[]): unknown[] {
  const parameters: unknown[] = []
  for (const row of rows) {
    const values = row as Record<string, unknown>
    // An absent or undefined value is written as NULL (every batched column is nullable or always set).
    for (const column of columns) parameters.push(values[column] ?? null)
  }
  return parameters
}
