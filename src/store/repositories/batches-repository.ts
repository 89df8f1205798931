// Batches and the item queue. Items are claimed with one conditional UPDATE (plus `FOR UPDATE SKIP
// LOCKED` on PostgreSQL) that takes a lease, so several instances share the work and the items of a
// crashed worker are claimed again once its lease has expired. Finishing an item and counting it are
// one transaction that only the lease holder can commit, so counts stay exact and nothing runs twice.
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../database.ts'
import type { StoreEngine } from '../open-store.ts'
import type { BatchItemTable, BatchTable } from '../tables/batch-tables.ts'
import { PreparedQuery, PreparedQueryCache } from '../prepared-query.ts'

export type BatchRow = Selectable<BatchTable>
export type BatchItemRow = Selectable<BatchItemTable>

export interface NewBatchItem {
  readonly customId: string
  readonly body: string
}

export interface ListBatchesQuery {
  readonly workspaceId: string
  /** Only batches submitted by this key or, when `internId` is set, by any key of that intern. */
  readonly submittedBy?: { readonly keyHash: string; readonly internId: string | null }
  readonly limit: number
  /** Return batches older than this one (newest first). */
  readonly after?: BatchRow
  readonly statuses?: readonly string[]
  readonly createdAfter?: string
  readonly createdBefore?: string
}

export interface FinishedItem {
  readonly itemId: string
  readonly owner: string
  /** JSON `{response, error}`. */
  readonly result: string
  readonly costNano: bigint
  readonly isFailed: boolean
  readonly at: string
}

const insertChunk = 200

/** The batch worker's pass runs these every poll (a second by default): prepared once. */
interface PassQueries {
  readonly inStatuses: PreparedQueryCache<[], BatchRow>
  readonly sweepDue: PreparedQueryCache<[cutoff: string], { id: string }>
  readonly webhooksDue: PreparedQuery<[now: string], BatchRow>
}

export function createBatchesRepository(db: Kysely<Database>, engine: StoreEngine) {
  const pass: PassQueries = {
    inStatuses: new PreparedQueryCache(0),
    sweepDue: new PreparedQueryCache(1),
    webhooksDue: new PreparedQuery(1, (now: string) =>
      db
        .selectFrom('batches')
        .selectAll()
        .where('webhook_status', '=', 'pending')
        .where('webhook_next_at', '<=', now)
        .limit(20),
    ),
  }
  return {
    insert: (batch: BatchRow, items: readonly NewBatchItem[]) => insertBatch(db, batch, items),
    find: (id: string) => findBatch(db, id),
    list: (query: ListBatchesQuery) => listBatches(db, query),
    delete: (id: string) => deleteBatch(db, id),
    transition: (id: string, from: readonly string[], to: string, changes?: Partial<BatchRow>) =>
      transitionBatch(db, id, from, to, changes),
    inStatuses: (statuses: readonly string[]) => listBatchesInStatuses(db, pass, statuses),
    claimItems: (batchId: string, owner: string, now: string, leaseUntil: string, limit: number) =>
      claimItems(db, engine, batchId, owner, now, leaseUntil, limit),
    renewLeases: (itemIds: readonly string[], owner: string, leaseUntil: string) =>
      renewLeases(db, itemIds, owner, leaseUntil),
    finishItem: (item: FinishedItem) => finishItem(db, item),
    failUnleased: (batchId: string, now: string, result: string) => failUnleased(db, batchId, now, result),
    pendingCount: (batchId: string) => countPendingItems(db, batchId),
    totalCostNano: (batchId: string) => sumCostNano(db, batchId),
    results: (batchId: string) => listResults(db, batchId),
    sweepResults: (cutoff: string, now: string, terminal: readonly string[]) =>
      sweepResults(db, pass, cutoff, now, terminal),
    webhooksDue: async (now: string) => (await db.executeQuery(pass.webhooksDue.compiled(now))).rows,
    updateWebhook: (id: string, changes: Pick<BatchRow, 'webhook_status' | 'webhook_attempts' | 'webhook_next_at'>) =>
      updateWebhook(db, id, changes),
  }
}

export type BatchesRepository = ReturnType<typeof createBatchesRepository>

async function insertBatch(db: Kysely<Database>, batch: BatchRow, items: readonly NewBatchItem[]): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    await transaction.insertInto('batches').values(batch).execute()
    for (let start = 0; start < items.length; start += insertChunk) {
      const rows = items.slice(start, start + insertChunk).map((item, offset) => ({
        id: `${batch.id}:${start + offset}`,
        batch_id: batch.id,
        position: start + offset,
        custom_id: item.customId,
        body: item.body,
        status: 'pending',
        lease_owner: null,
        lease_expires_at: null,
        attempts: 0,
        result: null,
        cost_nano: '0',
        finished_at: null,
      }))
      await transaction.insertInto('batch_items').values(rows).execute()
    }
  })
}

async function findBatch(db: Kysely<Database>, id: string): Promise<BatchRow | undefined> {
  return db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst()
}

async function listBatches(db: Kysely<Database>, query: ListBatchesQuery): Promise<BatchRow[]> {
  let select = db.selectFrom('batches').selectAll().where('workspace_id', '=', query.workspaceId)
  const submittedBy = query.submittedBy
  if (submittedBy !== undefined) {
    const internId = submittedBy.internId
    select = select.where((builder) =>
      internId === null
        ? builder('key_hash', '=', submittedBy.keyHash)
        : builder.or([
            builder('key_hash', '=', submittedBy.keyHash),
            builder('key_hash', 'in', builder.selectFrom('api_keys').select('hash').where('intern_id', '=', internId)),
          ]),
    )
  }
  const after = query.after
  if (after !== undefined) {
    select = select.where((builder) =>
      builder.or([
        builder('created_at', '<', after.created_at),
        builder.and([builder('created_at', '=', after.created_at), builder('id', '<', after.id)]),
      ]),
    )
  }
  if (query.statuses !== undefined && query.statuses.length > 0)
    select = select.where('status', 'in', [...query.statuses])
  if (query.createdAfter !== undefined) select = select.where('created_at', '>', query.createdAfter)
  if (query.createdBefore !== undefined) select = select.where('created_at', '<', query.createdBefore)
  return select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute()
}

async function deleteBatch(db: Kysely<Database>, id: string): Promise<void> {
  await db.transaction().execute(async (transaction) => {
    await transaction.deleteFrom('batch_items').where('batch_id', '=', id).execute()
    await transaction.deleteFrom('batches').where('id', '=', id).execute()
  })
}

/** Moves a batch to `to` when it is in one of `from`; true when it moved. */
async function transitionBatch(
  db: Kysely<Database>,
  id: string,
  from: readonly string[],
  to: string,
  changes: Partial<BatchRow> = {},
): Promise<boolean> {
  const result = await db
    .updateTable('batches')
    .set({ ...changes, status: to })
    .where('id', '=', id)
    .where('status', 'in', [...from])
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

async function listBatchesInStatuses(
  db: Kysely<Database>,
  pass: PassQueries,
  statuses: readonly string[],
): Promise<BatchRow[]> {
  const query = pass.inStatuses.get(statuses.join(','), () =>
    db
      .selectFrom('batches')
      .selectAll()
      .where('status', 'in', [...statuses])
      .orderBy('created_at'),
  )
  return (await db.executeQuery(query.compiled())).rows
}

/** Leases up to `limit` due items of one batch to `owner` until `leaseUntil`. */
async function claimItems(
  db: Kysely<Database>,
  engine: StoreEngine,
  batchId: string,
  owner: string,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<BatchItemRow[]> {
  if (limit <= 0) return []
  const due = db
    .selectFrom('batch_items')
    .select('id')
    .where('batch_id', '=', batchId)
    .where('status', '=', 'pending')
    .where((builder) => builder.or([builder('lease_expires_at', 'is', null), builder('lease_expires_at', '<', now)]))
    .orderBy('position')
    .limit(limit)
  if (engine === 'postgres') {
    // A CTE runs once: a LIMIT subquery inside UPDATE ... IN (...) may be re-run per row by the planner.
    return db
      .with('picked', () => due.forUpdate().skipLocked())
      .updateTable('batch_items')
      .from('picked')
      .set((builder) => ({
        lease_owner: owner,
        lease_expires_at: leaseUntil,
        attempts: builder('batch_items.attempts', '+', 1),
      }))
      .whereRef('batch_items.id', '=', 'picked.id')
      .returningAll('batch_items')
      .execute()
  }
  // SQLite runs one writer at a time, so the statement is atomic without row locks.
  return db
    .updateTable('batch_items')
    .set((builder) => ({ lease_owner: owner, lease_expires_at: leaseUntil, attempts: builder('attempts', '+', 1) }))
    .where('id', 'in', due)
    .returningAll()
    .execute()
}

/** Extends to `leaseUntil` the leases `owner` still holds on unfinished `itemIds`; returns how many. */
async function renewLeases(
  db: Kysely<Database>,
  itemIds: readonly string[],
  owner: string,
  leaseUntil: string,
): Promise<number> {
  if (itemIds.length === 0) return 0
  const updated = await db
    .updateTable('batch_items')
    .set({ lease_expires_at: leaseUntil })
    .where('id', 'in', [...itemIds])
    .where('status', '=', 'pending')
    .where('lease_owner', '=', owner)
    .executeTakeFirst()
  return Number(updated.numUpdatedRows)
}

/** Records an item's outcome and counts it, only while `owner` holds its lease; true when recorded. */
async function finishItem(db: Kysely<Database>, item: FinishedItem): Promise<boolean> {
  return db.transaction().execute(async (transaction) => {
    const updated = await transaction
      .updateTable('batch_items')
      .set({
        status: 'done',
        result: item.result,
        cost_nano: item.costNano.toString(),
        finished_at: item.at,
        lease_owner: null,
        lease_expires_at: null,
      })
      .where('id', '=', item.itemId)
      .where('status', '=', 'pending')
      .where('lease_owner', '=', item.owner)
      .executeTakeFirst()
    if (Number(updated.numUpdatedRows) !== 1) return false
    const batchId = item.itemId.slice(0, item.itemId.lastIndexOf(':'))
    await transaction
      .updateTable('batches')
      .set((builder) =>
        item.isFailed ? { failed: builder('failed', '+', 1) } : { completed: builder('completed', '+', 1) },
      )
      .where('id', '=', batchId)
      .execute()
    return true
  })
}

/** Fails every pending item not under a live lease with `result`; returns how many. */
async function failUnleased(db: Kysely<Database>, batchId: string, now: string, result: string): Promise<number> {
  return db.transaction().execute(async (transaction) => {
    const updated = await transaction
      .updateTable('batch_items')
      .set({ status: 'done', result, finished_at: now, lease_owner: null, lease_expires_at: null })
      .where('batch_id', '=', batchId)
      .where('status', '=', 'pending')
      .where((builder) => builder.or([builder('lease_expires_at', 'is', null), builder('lease_expires_at', '<', now)]))
      .executeTakeFirst()
    const count = Number(updated.numUpdatedRows)
    if (count > 0)
      await transaction
        .updateTable('batches')
        .set((builder) => ({ failed: builder('failed', '+', count) }))
        .where('id', '=', batchId)
        .execute()
    return count
  })
}

async function countPendingItems(db: Kysely<Database>, batchId: string): Promise<number> {
  const row = await db
    .selectFrom('batch_items')
    .select((builder) => builder.fn.countAll<number | string | bigint>().as('count'))
    .where('batch_id', '=', batchId)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return Number(row?.count ?? 0)
}

async function sumCostNano(db: Kysely<Database>, batchId: string): Promise<bigint> {
  const rows = await db
    .selectFrom('batch_items')
    .select('cost_nano')
    .where('batch_id', '=', batchId)
    .where('cost_nano', '!=', '0')
    .execute()
  return rows.reduce((sum, row) => sum + BigInt(row.cost_nano), 0n)
}

async function listResults(
  db: Kysely<Database>,
  batchId: string,
): Promise<Pick<BatchItemRow, 'custom_id' | 'position' | 'result'>[]> {
  return db
    .selectFrom('batch_items')
    .select(['custom_id', 'position', 'result'])
    .where('batch_id', '=', batchId)
    .orderBy('position')
    .execute()
}

/** Deletes the items of terminal batches created at or before `cutoff`; returns the batch ids swept. */
async function sweepResults(
  db: Kysely<Database>,
  pass: PassQueries,
  cutoff: string,
  now: string,
  terminal: readonly string[],
): Promise<string[]> {
  const query = pass.sweepDue.get(terminal.join(','), (before: string) =>
    db
      .selectFrom('batches')
      .select('id')
      .where('created_at', '<=', before)
      .where('results_deleted_at', 'is', null)
      .where('status', 'in', [...terminal]),
  )
  const due = (await db.executeQuery(query.compiled(cutoff))).rows
  for (const { id } of due) {
    await db.transaction().execute(async (transaction) => {
      await transaction.deleteFrom('batch_items').where('batch_id', '=', id).execute()
      await transaction.updateTable('batches').set({ results_deleted_at: now }).where('id', '=', id).execute()
    })
  }
  return due.map((row) => row.id)
}

async function updateWebhook(
  db: Kysely<Database>,
  id: string,
  changes: Pick<BatchRow, 'webhook_status' | 'webhook_attempts' | 'webhook_next_at'>,
): Promise<void> {
  await db.updateTable('batches').set(changes).where('id', '=', id).execute()
}
