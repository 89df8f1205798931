// Organization, users, workspaces, members and API keys.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await createOrganizationsAndUsers(db)
  await createWorkspaces(db)
  await createWorkspaceMembers(db)
  await createApiKeys(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['api_keys', 'workspace_members', 'workspaces', 'users', 'organizations']) {
    await db.schema.dropTable(table).execute()
  }
}

async function createOrganizationsAndUsers(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organization_id', 'text', (column) => column.notNull().references('organizations.id'))
    .addColumn('email', 'text', (column) => column.notNull().unique())
    .addColumn('name', 'text')
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
}

async function createWorkspaces(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organization_id', 'text', (column) => column.notNull().references('organizations.id'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('slug', 'text', (column) => column.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('is_default', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .addColumn('default_image_model', 'text')
    .addColumn('default_text_model', 'text')
    .addColumn('default_provider_sort', 'text')
    .addColumn('disabled_server_tools', 'text')
    .addColumn('include_byok_in_budgets', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('io_logging_api_key_ids', 'text')
    .addColumn('io_logging_sampling_rate', 'real', (column) => column.notNull().defaultTo(1))
    .addColumn('is_data_discount_logging_enabled', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('is_observability_broadcast_enabled', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('is_observability_io_logging_enabled', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text')
    .execute()
}

async function createWorkspaceMembers(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('workspace_members')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('workspace_id', 'text', (column) => column.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('workspace_members_workspace_user', ['workspace_id', 'user_id'])
    .execute()
}

async function createApiKeys(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('hash', 'text', (column) => column.primaryKey())
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('label', 'text', (column) => column.notNull())
    .addColumn('organization_id', 'text', (column) => column.notNull().references('organizations.id'))
    .addColumn('workspace_id', 'text', (column) => column.notNull().references('workspaces.id'))
    .addColumn('intern_id', 'text')
    .addColumn('creator_user_id', 'text')
    .addColumn('disabled', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('expires_at', 'text')
    .addColumn('limit_usd', 'text')
    .addColumn('limit_reset', 'text')
    .addColumn('include_byok_in_limit', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('external_user', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute()
  await db.schema.createIndex('api_keys_workspace').on('api_keys').columns(['workspace_id', 'created_at']).execute()
}
