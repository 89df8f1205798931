// The usage ledger (one durable row per settled generation attempt), credit grants, and the hash of a
// key's partner-supplied `external.api_key`. Money is integer nano-dollars stored as decimal text, so
// SQLite and PostgreSQL hold it identically and no float ever touches it.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('external_api_key_hash', 'text').execute()

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('generation_id', 'text', (column) => column.notNull())
    .addColumn('attempt', 'integer', (column) => column.notNull())
    .addColumn('key_hash', 'text', (column) => column.notNull())
    .addColumn('workspace_id', 'text', (column) => column.notNull())
    .addColumn('organization_id', 'text', (column) => column.notNull())
    .addColumn('model', 'text', (column) => column.notNull())
    .addColumn('provider', 'text', (column) => column.notNull())
    .addColumn('prompt_tokens', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('reasoning_tokens', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('cached_tokens', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('cache_write_tokens', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('cost_nano', 'text', (column) => column.notNull())
    .addColumn('is_byok', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('end_user', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('ledger_entries_generation_attempt', ['generation_id', 'attempt'])
    .execute()
  await db.schema.createIndex('ledger_entries_key').on('ledger_entries').columns(['key_hash', 'created_at']).execute()

  await db.schema
    .createTable('credit_grants')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('organization_id', 'text', (column) => column.notNull())
    .addColumn('amount_nano', 'text', (column) => column.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('credit_grants').execute()
  await db.schema.dropTable('ledger_entries').execute()
  await db.schema.alterTable('api_keys').dropColumn('external_api_key_hash').execute()
}
