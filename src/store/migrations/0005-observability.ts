// Observability destinations (soft-deleted) and the durable delivery outbox.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('observability_destinations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('workspace_id', 'text', (column) => column.notNull().references('workspaces.id'))
    .addColumn('name', 'text')
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('config', 'text', (column) => column.notNull())
    .addColumn('enabled', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('api_key_hashes', 'text')
    .addColumn('broadcast_generation_cost', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('broadcast_generation_cost_allocation', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('broadcast_generation_identity', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('broadcast_generation_request_context', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('filter_rules', 'text')
    .addColumn('privacy_mode', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('regions', 'text', (column) => column.notNull())
    .addColumn('sampling_rate', 'double precision', (column) => column.notNull().defaultTo(1))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addColumn('deleted_at', 'text')
    .execute()
  await db.schema
    .createIndex('observability_destinations_workspace')
    .on('observability_destinations')
    .columns(['workspace_id', 'type'])
    .execute()

  await db.schema
    .createTable('observability_outbox')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('destination_id', 'text', (column) => column.notNull().references('observability_destinations.id'))
    .addColumn('generation_id', 'text', (column) => column.notNull())
    .addColumn('payload', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text', (column) => column.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('delivered_at', 'text')
    .addUniqueConstraint('observability_outbox_destination_generation', ['destination_id', 'generation_id'])
    .execute()
  await db.schema
    .createIndex('observability_outbox_due')
    .on('observability_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('observability_outbox').execute()
  await db.schema.dropTable('observability_destinations').execute()
}
