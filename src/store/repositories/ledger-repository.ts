// Ledger rows: one per settled generation attempt. Inserts are idempotent on (generation_id, attempt),
// so a batch retried after a failure, or a settlement repeated, never writes a second row. A row the
// store refuses on its own is set aside (`commitRows`), logged whole, and the others are written.
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../database.ts'
import type { LedgerEntryTable } from '../tables/ledger-credits-tables.ts'
import { BatchInsert } from '../batch-insert.ts'
import { commitRows, type RowsPlan } from '../commit-rows.ts'
import type { WriteBehind } from '../write-behind.ts'

export type LedgerRow = Selectable<LedgerEntryTable>

/** `writes` commits the inserts (the store's `WriteBehind`); reads go through `db`. */
export function createLedgerRepository(db: Kysely<Database>, writes: WriteBehind) {
  const insert = new BatchInsert<LedgerRow>(db, 'ledger_entries', { skipConflictsOn: ['generation_id', 'attempt'] })
  const plan: RowsPlan<LedgerRow> = {
    table: 'ledger_entries',
    statementsOf: (rows) => insert.statements(rows),
    describe: (row) => row,
  }
  return {
    /** How the group commit writes queued rows (`LedgerWriter`). */
    rowsPlan: plan,

    /**
     * Inserts the rows in one transaction; rows whose (generation_id, attempt) exists are skipped, and a
     * row the store refuses alone is set aside (`commitRows`). Rejects when the rows could not be written.
     */
    insertMany(rows: readonly LedgerRow[]): Promise<void> {
      return commitRows(writes, rows, plan)
    },

    /** One page of rows in id order, after `afterId` (keyset paging for replays). */
    async page(afterId: string | null, size: number): Promise<LedgerRow[]> {
      let select = db.selectFrom('ledger_entries').selectAll()
      if (afterId !== null) select = select.where('id', '>', afterId)
      return select.orderBy('id').limit(size).execute()
    },

    async listForKey(keyHash: string): Promise<LedgerRow[]> {
      return db.selectFrom('ledger_entries').selectAll().where('key_hash', '=', keyHash).orderBy('id').execute()
    },
  }
}

export type LedgerRepository = ReturnType<typeof createLedgerRepository>
