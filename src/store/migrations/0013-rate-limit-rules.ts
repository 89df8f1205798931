// Rate-limit rules set through the API, per key or workspace and optionally per model. One rule per
// (scope, target, model); `model` is '' for a rule that covers every model.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_rules')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organization_id', 'text', (column) => column.notNull().references('organizations.id'))
    .addColumn('workspace_id', 'text', (column) => column.notNull())
    .addColumn('scope', 'text', (column) => column.notNull())
    .addColumn('target', 'text', (column) => column.notNull())
    .addColumn('model', 'text', (column) => column.notNull())
    .addColumn('requests_per_minute', 'integer')
    .addColumn('tokens_per_minute', 'integer')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('rate_limit_rules_target_model', ['scope', 'target', 'model'])
    .execute()
  await db.schema.createIndex('rate_limit_rules_workspace').on('rate_limit_rules').columns(['workspace_id']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limit_rules').execute()
}
