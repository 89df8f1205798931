// A generation's unbilled excess: what the provider's reported usage priced above the request's
// reservation, recorded for operators because it is never charged past the reservation.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('generations')
    .addColumn('unbilled_excess_nano', 'text', (column) => column.notNull().defaultTo('0'))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').dropColumn('unbilled_excess_nano').execute()
}
