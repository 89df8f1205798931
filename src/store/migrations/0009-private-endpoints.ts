// Private (customer-hosted) endpoints with negotiated pricing, their last validation and the
// Idempotency-Key of the request that created them.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('private_endpoints')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organization_id', 'text', (column) => column.notNull().references('organizations.id'))
    .addColumn('workspace_id', 'text')
    .addColumn('model_permaslug', 'text', (column) => column.notNull())
    .addColumn('model_name', 'text', (column) => column.notNull())
    .addColumn('provider_slug', 'text', (column) => column.notNull())
    .addColumn('provider_name', 'text', (column) => column.notNull())
    .addColumn('api', 'text', (column) => column.notNull())
    .addColumn('upstream_model_id', 'text', (column) => column.notNull())
    .addColumn('base_url', 'text', (column) => column.notNull())
    .addColumn('declared_region', 'text')
    .addColumn('declared_zdr', 'integer')
    .addColumn('pricing_prompt', 'text', (column) => column.notNull())
    .addColumn('pricing_completion', 'text', (column) => column.notNull())
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('credential', 'text')
    .addColumn('validation', 'text')
    .addColumn('validated_at', 'text')
    .addColumn('validated_workspace_id', 'text')
    .addColumn('validated_revision', 'integer')
    .addColumn('revision', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('ever_activated', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('idempotency_key', 'text')
    .addColumn('idempotency_fingerprint', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('private_endpoints_idempotency', ['organization_id', 'idempotency_key'])
    .execute()
  await db.schema.createIndex('private_endpoints_status').on('private_endpoints').columns(['status']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('private_endpoints').execute()
}
