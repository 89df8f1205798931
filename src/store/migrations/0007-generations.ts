// Generation records and stored generation content.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('generations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('request_id', 'text')
    .addColumn('organization_id', 'text', (column) => column.notNull())
    .addColumn('workspace_id', 'text', (column) => column.notNull())
    .addColumn('key_hash', 'text', (column) => column.notNull())
    .addColumn('api_type', 'text', (column) => column.notNull())
    .addColumn('dialect', 'text', (column) => column.notNull())
    .addColumn('model', 'text', (column) => column.notNull())
    .addColumn('provider', 'text')
    .addColumn('upstream_model_id', 'text')
    .addColumn('upstream_id', 'text')
    .addColumn('streamed', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('cancelled', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('status', 'text', (column) => column.notNull())
    .addColumn('finish_reason', 'text')
    .addColumn('native_finish_reason', 'text')
    .addColumn('tokens_prompt', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('tokens_completion', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('tokens_cached', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('tokens_reasoning', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('cost_nano', 'text', (column) => column.notNull().defaultTo('0'))
    .addColumn('is_byok', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('latency_ms', 'integer')
    .addColumn('generation_time_ms', 'integer')
    .addColumn('session_id', 'text')
    .addColumn('end_user', 'text')
    .addColumn('preset', 'text')
    .addColumn('service_tier', 'text')
    .addColumn('attempts', 'text', (column) => column.notNull().defaultTo('[]'))
    .addColumn('error_status', 'integer')
    .addColumn('error_message', 'text')
    .addColumn('http_referer', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('generations_workspace_created')
    .on('generations')
    .columns(['workspace_id', 'created_at'])
    .execute()

  await db.schema
    .createTable('generation_contents')
    .addColumn('generation_id', 'text', (column) => column.primaryKey())
    .addColumn('workspace_id', 'text', (column) => column.notNull())
    .addColumn('input', 'text', (column) => column.notNull())
    .addColumn('output_completion', 'text')
    .addColumn('output_reasoning', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute()
  await db.schema.createIndex('generation_contents_created').on('generation_contents').column('created_at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('generation_contents').execute()
  await db.schema.dropTable('generations').execute()
}
