// Vaults (per workspace and per intern), their secrets, interns and intern-create idempotency records.
// Secrets keep nullable `hosts` and `fingerprint` so legacy rows (stored before host binding) can be
// imported; storing such a secret again assigns both.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('vaults')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('workspace_id', 'text', (column) => column.notNull().references('workspaces.id'))
    .addColumn('intern_id', 'text')
    .addColumn('owner', 'text', (column) => column.notNull().unique())
    .addColumn('data_key_sealed', 'text', (column) => column.notNull())
    .addColumn('fingerprint_key_sealed', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()

  await db.schema
    .createTable('vault_secrets')
    .addColumn('vault_id', 'text', (column) => column.notNull().references('vaults.id').onDelete('cascade'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('hosts', 'text')
    .addColumn('fingerprint', 'text')
    .addColumn('value_sealed', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('vault_secrets_pk', ['vault_id', 'name'])
    .execute()

  await db.schema
    .createTable('interns')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('workspace_id', 'text', (column) => column.notNull().references('workspaces.id'))
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('instructions', 'text')
    .addColumn('model', 'text')
    .addColumn('hostname', 'text')
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('progress', 'text')
    .addColumn('last_failure_message', 'text')
    .addColumn('vault_id', 'text', (column) => column.notNull())
    .addColumn('attached_vault_id', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('interns_workspace_name', ['workspace_id', 'name'])
    .execute()
  await db.schema
    .createIndex('interns_workspace_created')
    .on('interns')
    .columns(['workspace_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('intern_idempotency')
    .addColumn('workspace_id', 'text', (column) => column.notNull())
    .addColumn('idempotency_key', 'text', (column) => column.notNull())
    .addColumn('request_hash', 'text', (column) => column.notNull())
    .addColumn('intern_id', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('intern_idempotency_pk', ['workspace_id', 'idempotency_key'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['intern_idempotency', 'interns', 'vault_secrets', 'vaults']) {
    await db.schema.dropTable(table).execute()
  }
}
