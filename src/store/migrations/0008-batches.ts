// Batches and their items: the durable work queue the batch worker leases rows from.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('batches')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organization_id', 'text', (column) => column.notNull())
    .addColumn('workspace_id', 'text', (column) => column.notNull())
    .addColumn('key_hash', 'text', (column) => column.notNull())
    .addColumn('endpoint', 'text', (column) => column.notNull())
    .addColumn('model', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('completion_window', 'text', (column) => column.notNull())
    .addColumn('provider', 'text')
    .addColumn('callback_url', 'text')
    .addColumn('total', 'integer', (column) => column.notNull())
    .addColumn('completed', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('cost_nano', 'text', (column) => column.notNull().defaultTo('0'))
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .addColumn('finalized_at', 'text')
    .addColumn('results_deleted_at', 'text')
    .addColumn('webhook_status', 'text')
    .addColumn('webhook_attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('webhook_next_at', 'text')
    .execute()
  await db.schema
    .createIndex('batches_workspace_created')
    .on('batches')
    .columns(['workspace_id', 'created_at'])
    .execute()
  await db.schema.createIndex('batches_status').on('batches').columns(['status']).execute()

  await db.schema
    .createTable('batch_items')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('batch_id', 'text', (column) => column.notNull().references('batches.id').onDelete('cascade'))
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('custom_id', 'text', (column) => column.notNull())
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('result', 'text')
    .addColumn('cost_nano', 'text', (column) => column.notNull().defaultTo('0'))
    .addColumn('finished_at', 'text')
    .addUniqueConstraint('batch_items_batch_custom_id', ['batch_id', 'custom_id'])
    .execute()
  await db.schema.createIndex('batch_items_due').on('batch_items').columns(['batch_id', 'status', 'position']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('batch_items').execute()
  await db.schema.dropTable('batches').execute()
}
