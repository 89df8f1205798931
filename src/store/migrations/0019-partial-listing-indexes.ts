// The listing indexes on end_user and session_id (migration 0012) hold only the records that have one.
// Most records carry neither, and a listing filtered by either compares it with a value, which a null
// never equals, so both engines read the partial index for that filter. A record without them writes two
// index entries less (on SQLite about a tenth of the writer's work per record: two B-tree inserts and
// the pages they dirty).
import { sql, type Kysely } from 'kysely'

/** Index name -> its filter column; each index is (column, created_at, id). */
const partialIndexes = {
  generations_end_user_listing: 'end_user',
  generations_session_listing: 'session_id',
} as const

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, column] of Object.entries(partialIndexes)) {
    await db.schema.dropIndex(name).execute()
    await db.schema
      .createIndex(name)
      .on('generations')
      .columns([column, 'created_at', 'id'])
      .where(sql.ref(column), 'is not', null)
      .execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name, column] of Object.entries(partialIndexes)) {
    await db.schema.dropIndex(name).execute()
    await db.schema.createIndex(name).on('generations').columns([column, 'created_at', 'id']).execute()
  }
}
