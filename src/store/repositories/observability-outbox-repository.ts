// The durable delivery outbox. Rows are claimed with a compare-and-set lease, so several instances can
// poll the same table without delivering a row twice while a lease holds.
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../database.ts'
import type { ObservabilityOutboxTable } from '../tables/observability-tables.ts'
import { addDeliveredCount } from './observability-destinations-repository.ts'
import { PreparedQuery } from '../prepared-query.ts'

export type OutboxRow = Selectable<ObservabilityOutboxTable>

/** Rows per INSERT statement: 12 columns each stays under every engine's bound-parameter limit. */
const insertChunkRows = 500

export function createObservabilityOutboxRepository(db: Kysely<Database>) {
  const due = dueQuery(db)
  return {
    countByStatus: () => countByStatus(db),
    insertMany: (rows: readonly OutboxRow[]) => insertMany(db, rows),
    insertEach: (rows: readonly OutboxRow[]) => insertEach(db, rows),
    claimDue: (now: string, owner: string, leaseUntil: string, limit: number) =>
      claimDue(db, due, now, owner, leaseUntil, limit),
    markDeliveredMany: (ids: readonly string[], owner: string) => markDeliveredMany(db, ids, owner),
    markFailed: (
      id: string,
      owner: string,
      update: { attempts: number; nextAttemptAt: string; error: string; isDead: boolean },
    ) => markFailed(db, id, owner, update),
  }
}

export type ObservabilityOutboxRepository = ReturnType<typeof createObservabilityOutboxRepository>

/** Rows by status, for the outbox depth metric. */
async function countByStatus(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('observability_outbox')
    .select(['status', (builder) => builder.fn.countAll<number | string>().as('count')])
    .groupBy('status')
    .execute()
  const counts: Record<string, number> = { pending: 0, delivered: 0, dead: 0 }
  for (const row of rows) counts[row.status] = Number(row.count)
  return counts
}

/** Inserts new rows in one transaction; a (destination, generation) pair already there is kept. Returns how many were new. */
async function insertMany(db: Kysely<Database>, rows: readonly OutboxRow[]): Promise<number> {
  return (await insertEach(db, rows)).filter((inserted) => inserted).length
}

/** Inserts in one statement (one transaction past 500 rows); per row, whether it was new (a replayed generation is skipped). */
async function insertEach(db: Kysely<Database>, rows: readonly OutboxRow[]): Promise<boolean[]> {
  if (rows.length === 0) return []
  const insertChunks = async (executor: Kysely<Database>): Promise<Set<string>> => {
    const inserted = new Set<string>()
    for (let start = 0; start < rows.length; start += insertChunkRows) {
      const returned = await executor
        .insertInto('observability_outbox')
        .values(rows.slice(start, start + insertChunkRows))
        .onConflict((conflict) => conflict.columns(['destination_id', 'generation_id']).doNothing())
        .returning('id')
        .execute()
      for (const row of returned) inserted.add(row.id)
    }
    return inserted
  }
  const inserted =
    rows.length <= insertChunkRows ? await insertChunks(db) : await db.transaction().execute(insertChunks)
  return rows.map((row) => inserted.has(row.id))
}

/** Claims up to `limit` due rows for `owner` until `leaseUntil`; returns the rows it won. */
/** The ids of rows due and free, oldest first: every worker polls it (each second by default), so it is prepared. */
function dueQuery(db: Kysely<Database>) {
  return new PreparedQuery(2, (now: string, limit: number) =>
    db
      .selectFrom('observability_outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((builder) => builder.or([builder('lease_expires_at', 'is', null), builder('lease_expires_at', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(limit),
  )
}

async function claimDue(
  db: Kysely<Database>,
  due: ReturnType<typeof dueQuery>,
  now: string,
  owner: string,
  leaseUntil: string,
  limit: number,
): Promise<OutboxRow[]> {
  const candidates = (await db.executeQuery(due.compiled(now, limit))).rows
  if (candidates.length === 0) return []
  // One statement leases every candidate still free; its WHERE re-checks each row atomically.
  const claimed = await db
    .updateTable('observability_outbox')
    .set({ lease_owner: owner, lease_expires_at: leaseUntil })
    .where(
      'id',
      'in',
      candidates.map((candidate) => candidate.id),
    )
    .where('status', '=', 'pending')
    .where((builder) => builder.or([builder('lease_expires_at', 'is', null), builder('lease_expires_at', '<', now)]))
    .returningAll()
    .execute()
  return claimed.sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at))
}

/**
 * Deletes delivered rows still leased by `owner` and adds them to their destinations' delivered
 * counts, in one transaction (a row whose lease was lost is left to its new owner).
 */
async function markDeliveredMany(db: Kysely<Database>, ids: readonly string[], owner: string): Promise<void> {
  if (ids.length === 0) return
  await db.transaction().execute(async (transaction) => {
    const deleted = await transaction
      .deleteFrom('observability_outbox')
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .returning('destination_id')
      .execute()
    const perDestination = new Map<string, number>()
    for (const row of deleted) perDestination.set(row.destination_id, (perDestination.get(row.destination_id) ?? 0) + 1)
    for (const [destinationId, count] of perDestination) await addDeliveredCount(transaction, destinationId, count)
  })
}

/** Records a failed attempt: back to pending at `nextAttemptAt`, or `dead` when `isDead`. */
async function markFailed(
  db: Kysely<Database>,
  id: string,
  owner: string,
  update: { attempts: number; nextAttemptAt: string; error: string; isDead: boolean },
): Promise<void> {
  await db
    .updateTable('observability_outbox')
    .set({
      status: update.isDead ? 'dead' : 'pending',
      attempts: update.attempts,
      next_attempt_at: update.nextAttemptAt,
      last_error: update.error,
      lease_owner: null,
      lease_expires_at: null,
    })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .execute()
}
