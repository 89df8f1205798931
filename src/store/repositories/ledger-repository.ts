// Ledger rows: one per settled generation attempt. Inserts are idempotent on (generation_id, attempt),
// so a batch retried after a failure, or a settlement repeated, never writes a second row.
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../database.ts'
import type { LedgerEntryTable } from '../tables/ledger-credits-tables.ts'
import { BatchInsert } from '../batch-insert.ts'

export type LedgerRow = Selectable<LedgerEntryTable>

export function createLedgerRepository(db: Kysely<Database>) {
  const insert = new BatchInsert<LedgerRow>(db, 'ledger_entries', { skipConflictsOn: ['generation_id', 'attempt'] })
  return {
    /** Inserts the rows in one transaction; rows whose (generation_id, attempt) exists are skipped. */
    async insertMany(rows: readonly LedgerRow[]): Promise<void> {
      if (rows.length === 0) return
      if (rows.length === 1) return insert.insert(rows)
      await db.transaction().execute((transaction) => insert.insert(rows, transaction))
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
