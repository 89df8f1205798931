// Commits a write-behind batch of rows so that one bad row never blocks the others. The rows go in one
// transaction; when the engine refuses it for a row's data (a data exception or a broken constraint, not
// a lost connection or a full disk), the batch is split in halves and each half retried, down to the
// single row that fails alone: that row is set aside (`RejectedRows`: logged, counted) and every other
// row commits. A failure that is not about data rejects, so the caller keeps the rows and retries them.
import { isRowDataError } from './row-data-error.ts'
import type { WriteBehind, WriteStatement } from './write-behind.ts'

export interface RowsPlan<Row> {
  /** The table named in logs and in the metric. */
  readonly table: string
  /** The statements that write these rows (several tables at once is fine: one transaction). */
  statementsOf(rows: readonly Row[]): WriteStatement[]
  /** What a log line shows of a rejected row. */
  describe(row: Row): Readonly<Record<string, unknown>>
}

/** Resolves once every row is committed or rejected; rejects (rows not all written) on any other failure. */
export async function commitRows<Row>(writes: WriteBehind, rows: readonly Row[], plan: RowsPlan<Row>): Promise<void> {
  if (rows.length === 0) return
  try {
    await writes.commit(plan.statementsOf(rows))
  } catch (error) {
    if (!isRowDataError(error)) throw error
    if (rows.length === 1) {
      const reason = error instanceof Error ? error.message : String(error)
      writes.rejectedRows.add({ table: plan.table, row: plan.describe(rows[0]!), reason })
      return
    }
    const middle = Math.ceil(rows.length / 2)
    await commitRows(writes, rows.slice(0, middle), plan)
    await commitRows(writes, rows.slice(middle), plan)
  }
}
