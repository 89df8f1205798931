// Indexes behind GET /api/v1/generations: every filter of the listing has an index that ends in
// (created_at, id), the listing's keyset order, so a page is an index range read newest first whatever
// the store's size.
import type { Kysely } from 'kysely'

/** Index name -> the filter column(s) it starts with; each is followed by created_at and id. */
const listingIndexes: Readonly<Record<string, readonly string[]>> = {
  generations_organization_listing: ['organization_id'],
  generations_workspace_listing: ['workspace_id'],
  generations_key_listing: ['key_hash'],
  generations_model_listing: ['model'],
  generations_provider_listing: ['provider'],
  generations_status_listing: ['status'],
  generations_api_type_listing: ['api_type'],
  generations_dialect_listing: ['dialect'],
  generations_end_user_listing: ['end_user'],
  generations_session_listing: ['session_id'],
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // The workspace index is replaced by one that also orders by id (the keyset's tie-break).
  await db.schema.dropIndex('generations_workspace_created').execute()
  for (const [name, columns] of Object.entries(listingIndexes)) {
    await db.schema
      .createIndex(name)
      .on('generations')
      .columns([...columns, 'created_at', 'id'])
      .execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of Object.keys(listingIndexes)) await db.schema.dropIndex(name).execute()
  await db.schema
    .createIndex('generations_workspace_created')
    .on('generations')
    .columns(['workspace_id', 'created_at'])
    .execute()
}
