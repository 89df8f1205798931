// End-user registrations, keyed by organization and the exact (case-sensitive) tracking string.
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../database.ts'
import type { EndUserTable } from '../tables/end-users-presets-tables.ts'

export type EndUserRow = Selectable<EndUserTable>

export interface ListEndUsersQuery {
  readonly organizationId: string
  readonly trackingId?: string
  readonly includeInactive: boolean
  readonly offset: number
  readonly limit: number
}

export function createEndUsersRepository(db: Kysely<Database>) {
  return {
    /** Inserts a registration; returns false when the tracking string is already registered. */
    async insertIfAbsent(row: EndUserRow): Promise<boolean> {
      const result = await db
        .insertInto('end_users')
        .values(row)
        .onConflict((conflict) => conflict.columns(['organization_id', 'tracking_id']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1
    },

    async find(organizationId: string, trackingId: string): Promise<EndUserRow | undefined> {
      return db
        .selectFrom('end_users')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('tracking_id', '=', trackingId)
        .executeTakeFirst()
    },

    /** Sets is_active; returns the updated row, or undefined when absent. */
    async setActive(
      organizationId: string,
      trackingId: string,
      isActive: boolean,
      now: string,
    ): Promise<EndUserRow | undefined> {
      await db
        .updateTable('end_users')
        .set({ is_active: isActive ? 1 : 0, updated_at: now })
        .where('organization_id', '=', organizationId)
        .where('tracking_id', '=', trackingId)
        .where('is_active', '=', isActive ? 0 : 1)
        .execute()
      return this.find(organizationId, trackingId)
    },

    async list(query: ListEndUsersQuery): Promise<{ rows: EndUserRow[]; total: number }> {
      let base = db.selectFrom('end_users').where('organization_id', '=', query.organizationId)
      if (query.trackingId !== undefined) base = base.where('tracking_id', '=', query.trackingId)
      if (!query.includeInactive) base = base.where('is_active', '=', 1)
      const rows = await base
        .selectAll()
        .orderBy('created_at')
        .orderBy('tracking_id')
        .limit(query.limit)
        .offset(query.offset)
        .execute()
      const count = await base
        .select((builder) => builder.fn.countAll<number | string>().as('count'))
        .executeTakeFirstOrThrow()
      return { rows, total: Number(count.count) }
    },
  }
}

export type EndUsersRepository = ReturnType<typeof createEndUsersRepository>
