// Response caching: a generation answered from the response cache names the generation whose answer
// it replayed; keys and workspaces carry their caching settings (on, off, or left to the request, and
// the TTL of the answers their calls store).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('generations').addColumn('response_cache_source_id', 'text').execute()
  for (const table of ['api_keys', 'workspaces']) {
    await db.schema.alterTable(table).addColumn('response_cache_enabled', 'integer').execute()
    await db.schema.alterTable(table).addColumn('response_cache_ttl_seconds', 'integer').execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['api_keys', 'workspaces']) {
    await db.schema.alterTable(table).dropColumn('response_cache_ttl_seconds').execute()
    await db.schema.alterTable(table).dropColumn('response_cache_enabled').execute()
  }
  await db.schema.alterTable('generations').dropColumn('response_cache_source_id').execute()
}
