// Observability destinations: soft-deleted rows never come back from these reads.
import { sql, type Kysely } from 'kysely'
import type { Database } from '../database.ts'
import type { DestinationRow } from '../tables/observability-tables.ts'
import type { RowsPlan } from '../commit-rows.ts'
import { PreparedQuery } from '../prepared-query.ts'

export interface DeliveryCounts {
  readonly pending: number
  readonly failed: number
  readonly delivered: number
  readonly deadLettered: number
}

function addDeliveredQuery(executor: Kysely<Database>, id: string, count: number) {
  return executor
    .updateTable('observability_destinations')
    .set((builder) => ({ delivered_count: sql<number>`${builder.ref('delivered_count')} + ${count}` }))
    .where('id', '=', id)
}

/** Adds `count` delivered records to a destination's counter, through `executor` (a transaction or the store). */
export async function addDeliveredCount(executor: Kysely<Database>, id: string, count: number): Promise<void> {
  await addDeliveredQuery(executor, id, count).execute()
}

function live(db: Kysely<Database>) {
  return db.selectFrom('observability_destinations').where('deleted_at', 'is', null)
}

/** Records a destination was sent straight from memory, added to its delivered count by the group commit. */
export interface DeliveredCount {
  readonly destinationId: string
  readonly count: number
}

/**
 * How the group commit writes delivered counts: the rows of one transaction summed per destination, one
 * update each. The statement is prepared: direct delivery adds a count several times a second.
 */
export function deliveredCountsPlan(db: Kysely<Database>): RowsPlan<DeliveredCount> {
  const statement = new PreparedQuery(2, (id: string, count: number) => addDeliveredQuery(db, id, count))
  return {
    table: 'observability_destinations',
    statementsOf: (rows) => {
      const sums = new Map<string, number>()
      for (const { destinationId, count } of rows) sums.set(destinationId, (sums.get(destinationId) ?? 0) + count)
      return [...sums].map(([id, count]) => ({ sql: statement.sql, parameters: statement.parameters(id, count) }))
    },
    describe: ({ destinationId, count }) => ({ destination_id: destinationId, count }),
  }
}

/** A plain object of closures rather than a class, so callers may pass its methods around or spread it. */
export function createObservabilityDestinationsRepository(db: Kysely<Database>) {
  return {
    insert: (row: DestinationRow) => insertDestination(db, row),
    find: (id: string) => findDestination(db, id),
    countOfType: (workspaceId: string, type: string) => countOfType(db, workspaceId, type),
    list: (workspaceId: string, types: readonly string[], offset: number, limit: number) =>
      listDestinations(db, workspaceId, types, offset, limit),
    listDeliverable: (workspaceId: string) => listDeliverable(db, workspaceId),
    update: (row: DestinationRow) => updateDestination(db, row),
    softDelete: (id: string, at: string) => softDeleteDestination(db, id, at),
    recordError: (id: string, message: string | null) => recordDestinationError(db, id, message),
    deliveryCounts: (ids: readonly string[]) => deliveryCounts(db, ids),
  }
}

export type ObservabilityDestinationsRepository = ReturnType<typeof createObservabilityDestinationsRepository>

async function insertDestination(db: Kysely<Database>, row: DestinationRow): Promise<void> {
  await db.insertInto('observability_destinations').values(row).execute()
}

async function findDestination(db: Kysely<Database>, id: string): Promise<DestinationRow | undefined> {
  return live(db).selectAll().where('id', '=', id).executeTakeFirst()
}

async function countOfType(db: Kysely<Database>, workspaceId: string, type: string): Promise<number> {
  const row = await live(db)
    .select((builder) => builder.fn.countAll<number | string>().as('count'))
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', type)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

async function listDestinations(
  db: Kysely<Database>,
  workspaceId: string,
  types: readonly string[],
  offset: number,
  limit: number,
): Promise<{ rows: DestinationRow[]; total: number }> {
  const scoped = () =>
    live(db)
      .where('workspace_id', '=', workspaceId)
      .where('type', 'in', [...types])
  const rows = await scoped().selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute()
  const count = await scoped()
    .select((builder) => builder.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow()
  return { rows, total: Number(count.count) }
}

async function listDeliverable(db: Kysely<Database>, workspaceId: string): Promise<DestinationRow[]> {
  return live(db).selectAll().where('workspace_id', '=', workspaceId).where('enabled', '=', 1).execute()
}

async function updateDestination(db: Kysely<Database>, row: DestinationRow): Promise<void> {
  const { id, created_at: _created, ...changes } = row
  await db
    .updateTable('observability_destinations')
    .set(changes)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute()
}

async function softDeleteDestination(db: Kysely<Database>, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('observability_destinations')
    .set({ deleted_at: at, enabled: 0 })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

async function recordDestinationError(db: Kysely<Database>, id: string, message: string | null): Promise<void> {
  await db.updateTable('observability_destinations').set({ last_error: message }).where('id', '=', id).execute()
}

async function deliveryCounts(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, DeliveryCounts>> {
  const counts = new Map<string, DeliveryCounts>()
  if (ids.length === 0) return counts
  const rows = await db
    .selectFrom('observability_outbox')
    .select(['destination_id', 'status', (builder) => builder.fn.countAll<number | string>().as('count')])
    .select((builder) =>
      builder.fn
        .sum<number | string | null>(builder.case().when('attempts', '>', 0).then(1).else(0).end())
        .as('retrying'),
    )
    .where('destination_id', 'in', [...ids])
    .groupBy(['destination_id', 'status'])
    .execute()
  // Delivered rows are deleted on delivery; their number is kept on the destination.
  const delivered = await db
    .selectFrom('observability_destinations')
    .select(['id', 'delivered_count'])
    .where('id', 'in', [...ids])
    .execute()
  for (const row of delivered)
    counts.set(row.id, { pending: 0, failed: 0, delivered: Number(row.delivered_count), deadLettered: 0 })
  for (const row of rows) {
    const current = counts.get(row.destination_id) ?? { pending: 0, failed: 0, delivered: 0, deadLettered: 0 }
    const count = Number(row.count)
    counts.set(row.destination_id, {
      pending: current.pending + (row.status === 'pending' ? count : 0),
      failed: current.failed + (row.status === 'pending' ? Number(row.retrying ?? 0) : 0),
      delivered: current.delivered,
      deadLettered: current.deadLettered + (row.status === 'dead' ? count : 0),
    })
  }
  return counts
}
