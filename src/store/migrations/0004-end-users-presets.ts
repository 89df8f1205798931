// End-user registrations and presets with their immutable versions.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('end_users')
    .addColumn('organization_id', 'text', (column) => column.notNull().references('organizations.id'))
    .addColumn('tracking_id', 'text', (column) => column.notNull())
    .addColumn('is_active', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('end_users_pk', ['organization_id', 'tracking_id'])
    .execute()
  await db.schema.createIndex('end_users_created').on('end_users').columns(['organization_id', 'created_at']).execute()

  await db.schema
    .createTable('presets')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('workspace_id', 'text', (column) => column.notNull().references('workspaces.id'))
    .addColumn('slug', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('status_updated_at', 'text')
    .addColumn('designated_version_id', 'text')
    .addColumn('creator_user_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('presets_workspace_slug', ['workspace_id', 'slug'])
    .execute()
  await db.schema.createIndex('presets_updated').on('presets').columns(['workspace_id', 'updated_at']).execute()

  await db.schema
    .createTable('preset_versions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('preset_id', 'text', (column) => column.notNull().references('presets.id').onDelete('cascade'))
    .addColumn('version', 'integer', (column) => column.notNull())
    .addColumn('config', 'text', (column) => column.notNull())
    .addColumn('system_prompt', 'text')
    .addColumn('creator_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('preset_versions_preset_version', ['preset_id', 'version'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['preset_versions', 'presets', 'end_users']) {
    await db.schema.dropTable(table).execute()
  }
}
