// Multi-row inserts for the write-behind batches of the hot path (generation records, ledger rows).
// Building a Kysely insert for N rows walks N x columns value nodes and compiles a fresh SQL text, and
// every distinct text is a fresh prepared statement on SQLite. Here rows are written in chunks of a
// few fixed sizes, and each (table, columns, chunk size) is compiled by Kysely once, so the dialect's
// own SQL is reused with new parameters and SQLite reuses its prepared statement. The statements go to
// the store's `WriteBehind` (a worker thread on a SQLite file). A flush of a few hundred rows is
// committed `inSlices`: one transaction per slice of `rowsPerSlice` rows, with a turn of the event loop
// between slices, so building and posting one slice's parameters is all the event loop does at a
// time, and on the main connection (PostgreSQL, in-memory SQLite) other store calls (a delivered count,
// a management read) wait for one slice, not for the whole flush. String values are bound as storable text
// (`toStorableParameter`: NUL and unpaired surrogates become U+FFFD), as Kysely statements are.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import type { Database } from './database.ts'
import { toStorableParameter } from './storable-text-dialect.ts'
import type { WriteStatement } from './write-behind.ts'

/** Chunk sizes, largest first; a batch of 30 rows is written as 16 + 3 x 4 + 2 x 1. */
const chunkSizes = [16, 4, 1] as const

type TableName = keyof Database & string

export interface BatchInsertOptions {
  /** `ON CONFLICT (<columns>) DO NOTHING`: rows that already exist are skipped. */
  readonly skipConflictsOn?: readonly string[]
}

export class BatchInsert<Row extends object> {
  readonly #db: Kysely<Database>
  readonly #table: TableName
  readonly #options: BatchInsertOptions
  /** Compiled texts by chunk size, per column list (rows of one table come in one or a few). */
  readonly #texts: { readonly columns: readonly string[]; readonly bySize: Map<number, string> }[] = []

  constructor(db: Kysely<Database>, table: TableName, options: BatchInsertOptions = {}) {
    this.#db = db
    this.#table = table
    this.#options = options
  }

  /** The statements that insert every row (all rows must have the same columns), for `WriteBehind.commit`. */
  statements(rows: readonly Row[]): WriteStatement[] {
    const statements: WriteStatement[] = []
    if (rows.length === 0) return statements
    const columns = Object.keys(rows[0]!)
    const texts = this.#textsFor(columns)
    let offset = 0
    for (const size of chunkSizes) {
      while (rows.length - offset >= size) {
        let sql = texts.get(size)
        if (sql === undefined) texts.set(size, (sql = this.#compile(columns, size)))
        statements.push({
          sql,
          parameters: parametersOf(rows.slice(offset, offset + size), columns),
        })
        offset += size
      }
    }
    return statements
  }

  /**
   * The texts compiled for this column list, found by comparing the names (the same few constant
   * strings each time); a key joined from ~40 names cost a join and a hash of ~600 characters per batch.
   */
  #textsFor(columns: readonly string[]): Map<number, string> {
    const known = this.#texts.find(
      (entry) =>
        entry.columns.length === columns.length && entry.columns.every((name, index) => name === columns[index]),
    )
    if (known !== undefined) return known.bySize
    const bySize = new Map<number, string>()
    this.#texts.push({ columns, bySize })
    return bySize
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
      throw new Error(
        `batch insert into ${this.#table}: expected ${size * columns.length} parameters, Kysely compiled ${compiled.parameters.length}`,
      )
    }
    return compiled.sql
  }
}

/** Rows per transaction of a write-behind flush (see `inSlices`). */
export const rowsPerSlice = 32

/**
 * Writes `rows` in slices of at most `sliceSize` (`rowsPerSlice` by default), each through `write`
 * (typically one transaction), with a turn of the event loop between slices. Stops at the first slice
 * that fails: the slices before it are written, and `write` is expected to leave the rest to be
 * retried. OTLP encoding uses it too (`sliced-spans.ts`).
 */
export async function inSlices<T>(
  rows: readonly T[],
  write: (slice: readonly T[]) => Promise<void>,
  sliceSize = rowsPerSlice,
): Promise<void> {
  for (let offset = 0; offset < rows.length; offset += sliceSize) {
    if (offset > 0) await yieldToEventLoop()
    await write(rows.slice(offset, offset + sliceSize))
  }
}

function parametersOf(rows: readonly object[], columns: readonly string[]): unknown[] {
  const parameters: unknown[] = []
  for (const row of rows) {
    const values = row as Record<string, unknown>
    // An absent or undefined value is written as NULL (every batched column is nullable or always set).
    for (const column of columns) parameters.push(toStorableParameter(values[column] ?? null))
  }
  return parameters
}
