// A migration that fails is named in the error; a failure before any migration ran says so and names
// the next one to apply instead of "migration unknown failed".
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { openStore } from '../../src/store/open-store.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { createSqliteDatabase } from '../support/test-store.ts'

test('a failing migration is named in the error', async () => {
  const database = createSqliteDatabase()
  const store = openStore(database.url)
  try {
    await sql`create table organizations (id integer)`.execute(store.db)
    await assert.rejects(migrateToLatest(store), (error: Error) => {
      assert.match(error.message, /^migration 0001-identity failed: .*organizations/)
      return true
    })
  } finally {
    await store.close()
    await database.dispose()
  }
})

test('a failure outside any migration says the migrations could not run, never "unknown"', async () => {
  const database = createSqliteDatabase()
  const store = openStore(database.url)
  try {
    await migrateToLatest(store)
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-version', '2026-01-01')`.execute(
      store.db,
    )
    await assert.rejects(migrateToLatest(store), (error: Error) => {
      assert.match(error.message, /^the migrations could not run: .*9999-from-a-newer-version/)
      assert.doesNotMatch(error.message, /unknown/)
      return true
    })
  } finally {
    await store.close()
    await database.dispose()
  }
})
