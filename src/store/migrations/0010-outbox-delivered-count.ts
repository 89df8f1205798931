// Delivered outbox rows are deleted instead of kept: at thousands of generations per second, keeping
// every delivered record (a few KB each) grew the outbox without bound and slowed every insert into it.
// What they were kept for, the destination's delivered count, becomes a counter on the destination.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('observability_destinations')
    .addColumn('delivered_count', 'integer', (column) => column.notNull().defaultTo(0))
    .execute()
  await sql`update observability_destinations set delivered_count = (
    select count(*) from observability_outbox
    where observability_outbox.destination_id = observability_destinations.id and observability_outbox.status = 'delivered')`.execute(
    db,
  )
  await sql`delete from observability_outbox where status = 'delivered'`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('observability_destinations').dropColumn('delivered_count').execute()
}
