import { test } from 'node:test'
import assert from 'node:assert/strict'
import SqliteDatabase from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { cachePreparedStatements } from './cache-prepared-statements.ts'

test('each SQL text is prepared once, results stay correct, and the cache is bounded', async () => {
  const raw = new SqliteDatabase(':memory:')
  let prepared = 0
  const counting = { close: () => raw.close(), prepare: (text: string) => (prepared++, raw.prepare(text)) }
  const db = new Kysely<{ items: { id: number; name: string } }>({
    dialect: new SqliteDialect({ database: cachePreparedStatements(counting, 3) }),
  })
  await sql`create table items (id integer primary key, name text)`.execute(db)
  for (let id = 1; id <= 5; id++)
    await db
      .insertInto('items')
      .values({ id, name: `n${id}` })
      .execute()
  const rows = await db.selectFrom('items').select('name').where('id', '>', 3).orderBy('id').execute()
  assert.deepEqual(rows, [{ name: 'n4' }, { name: 'n5' }])
  assert.equal(prepared, 3, 'create, insert (once for five rows), select')
  await db.selectFrom('items').select('id').execute()
  await db.selectFrom('items').select('name').execute()
  await db.selectFrom('items').select('name').where('id', '>', 3).orderBy('id').execute()
  assert.equal(prepared, 6, 'the fourth text cleared the cache (limit 3), so the earlier select was prepared again')
  await db.destroy()
})
