// Private endpoints. Writes that depend on what was read (saving a validation, changing status) are
// conditional on the row's `revision` or `status`, so a concurrent change is never overwritten.
import type { Kysely } from 'kysely'
import type { Database } from '../database.ts'
import type { PrivateEndpointRow } from '../tables/private-endpoints-tables.ts'

export function createPrivateEndpointsRepository(db: Kysely<Database>) {
  return {
    async insert(row: PrivateEndpointRow): Promise<void> {
      await db.insertInto('private_endpoints').values(row).execute()
    },

    async find(id: string): Promise<PrivateEndpointRow | undefined> {
      return db.selectFrom('private_endpoints').selectAll().where('id', '=', id).executeTakeFirst()
    },

    async findByIdempotencyKey(organizationId: string, key: string): Promise<PrivateEndpointRow | undefined> {
      return db
        .selectFrom('private_endpoints')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst()
    },

    async list(organizationId: string): Promise<PrivateEndpointRow[]> {
      return db
        .selectFrom('private_endpoints')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    },

    async listActive(): Promise<PrivateEndpointRow[]> {
      return db.selectFrom('private_endpoints').selectAll().where('status', '=', 'active').execute()
    },

    /** Replaces the row if it is still at `expectedRevision`; false when it changed (or is gone) meanwhile. */
    async update(row: PrivateEndpointRow, expectedRevision: number): Promise<boolean> {
      const { id, created_at: _created, organization_id: _organization, ...changes } = row
      const result = await db
        .updateTable('private_endpoints')
        .set(changes)
        .where('id', '=', id)
        .where('revision', '=', expectedRevision)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    async remove(id: string): Promise<boolean> {
      const result = await db.deleteFrom('private_endpoints').where('id', '=', id).executeTakeFirst()
      return Number(result.numDeletedRows) === 1
    },
  }
}

export type PrivateEndpointsRepository = ReturnType<typeof createPrivateEndpointsRepository>
