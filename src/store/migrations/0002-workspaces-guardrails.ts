// Workspace budgets, guardrails and guardrail assignments. The workspace columns themselves came with
// 0001; a workspace's default guardrail id is derived from its id, so it needs no column.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await createWorkspaceBudgets(db)
  await createGuardrails(db)
  await createGuardrailKeyAssignments(db)
  await createGuardrailMemberAssignments(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'guardrail_member_assignments',
    'guardrail_key_assignments',
    'guardrails',
    'workspace_budgets',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}

async function createWorkspaceBudgets(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspace_budgets')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('workspace_id', 'text', (column) => column.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('interval', 'text', (column) => column.notNull())
    .addColumn('limit_usd', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('workspace_budgets_workspace_interval', ['workspace_id', 'interval'])
    .execute()
}

async function createGuardrails(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('guardrails')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organization_id', 'text', (column) => column.notNull().references('organizations.id'))
    .addColumn('workspace_id', 'text', (column) => column.references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('limit_usd', 'text')
    .addColumn('reset_interval', 'text')
    .addColumn('include_byok_in_budgets', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('allowed_models', 'text')
    .addColumn('ignored_models', 'text')
    .addColumn('allowed_providers', 'text')
    .addColumn('ignored_providers', 'text')
    .addColumn('allowed_data_regions', 'text')
    .addColumn('content_filters', 'text')
    .addColumn('content_filter_builtins', 'text')
    .addColumn('enforce_zdr', 'integer')
    .addColumn('enforce_zdr_anthropic', 'integer')
    .addColumn('enforce_zdr_openai', 'integer')
    .addColumn('enforce_zdr_google', 'integer')
    .addColumn('enforce_zdr_xai', 'integer')
    .addColumn('enforce_zdr_other', 'integer')
    .addColumn('enable_free_model_publication', 'integer')
    .addColumn('enable_free_model_training', 'integer')
    .addColumn('enable_paid_model_training', 'integer')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text')
    .execute()
  await db.schema.createIndex('guardrails_workspace').on('guardrails').columns(['workspace_id', 'created_at']).execute()
}

async function createGuardrailKeyAssignments(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('guardrail_key_assignments')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('guardrail_id', 'text', (column) => column.notNull().references('guardrails.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (column) =>
      column.notNull().unique().references('api_keys.hash').onDelete('cascade'),
    )
    .addColumn('assigned_by', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('guardrail_key_assignments_guardrail')
    .on('guardrail_key_assignments')
    .columns(['guardrail_id', 'created_at'])
    .execute()
}

async function createGuardrailMemberAssignments(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('guardrail_member_assignments')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('guardrail_id', 'text', (column) => column.notNull().references('guardrails.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (column) => column.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (column) => column.notNull())
    .addColumn('assigned_by', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('guardrail_member_assignments_guardrail')
    .on('guardrail_member_assignments')
    .columns(['guardrail_id', 'created_at'])
    .execute()
}
