// The write worker of a SQLite file store: each commit is one transaction on the worker's own
// connection (it waits for a write lock the main connection holds, and the main connection sees its rows
// once it resolves), a failing statement rolls back its whole commit, a commit that cannot be posted
// leaves no SQL text half-sent, and close waits for the commits already asked for before it refuses new ones.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { openStore, type Store } from './open-store.ts'
import { SqliteWriteWorker } from './sqlite-write-worker.ts'

let directory: string
let store: Store

before(async () => {
  directory = mkdtempSync(join(tmpdir(), 'switchyard-write-worker-'))
  store = openStore(`sqlite:${join(directory, 'store.db')}`)
  await sql`create table notes (id text primary key, body text not null)`.execute(store.db)
})
after(async () => {
  await store.close()
  rmSync(directory, { recursive: true, force: true })
})

const insertNote = (id: string, body: string | null) => ({
  sql: 'insert into notes (id, body) values (?, ?)',
  parameters: [id, body],
})

async function bodies(prefix: string): Promise<string[]> {
  const rows = await sql<{ body: string }>`select body from notes where id like ${`${prefix}%`} order by id`.execute(
    store.db,
  )
  return rows.rows.map((row) => row.body)
}

test('a commit runs on its own connection: it waits while the main connection holds the write lock', async () => {
  assert.ok(store.writes instanceof SqliteWriteWorker, 'a SQLite file store commits through the worker')
  await sql`begin immediate`.execute(store.db)
  let committed = false
  const commit = store.writes
    .commit([insertNote('a-1', 'first'), insertNote('a-2', 'second')])
    .then(() => (committed = true))
  await sleep(100)
  assert.equal(committed, false, 'the worker waits for the lock; the main thread meanwhile goes on')
  await sql`commit`.execute(store.db)
  await commit
  assert.deepEqual(await bodies('a-'), ['first', 'second'])
})

test("a statement that fails rolls back its whole commit and rejects with SQLite's message and code", async () => {
  await assert.rejects(
    store.writes.commit([insertNote('b-1', 'kept?'), insertNote('b-2', null)]),
    (error: Error & { code?: string }) => {
      assert.match(error.message, /NOT NULL constraint failed: notes\.body/)
      assert.equal(error.code, 'SQLITE_CONSTRAINT_NOTNULL')
      return true
    },
  )
  assert.deepEqual(await bodies('b-'), [])
  await store.writes.commit([insertNote('b-1', 'after the failure')])
  assert.deepEqual(await bodies('b-'), ['after the failure'])
})

test('a parameter that cannot reach the worker rejects its commit; the SQL texts it carried are sent again', async () => {
  // Each SQL text goes to the worker once, with the first commit that uses it; a commit that could not
  // be posted sent nothing, so the next one that uses its texts sends them.
  const upsertNote = (id: string, body: unknown) => ({
    sql: 'insert into notes (id, body) values (?, ?) on conflict (id) do update set body = excluded.body',
    parameters: [id, body],
  })
  await assert.rejects(store.writes.commit([upsertNote('e-1', () => 'a function')]), /could not be cloned/)
  await store.writes.commit([upsertNote('e-1', 'first'), upsertNote('e-1', 'second'), insertNote('e-2', 'other')])
  assert.deepEqual(await bodies('e-'), ['second', 'other'])
})

test('close waits for the commits already asked for, then refuses new ones', async () => {
  const file = join(directory, 'store.db')
  const writes = new SqliteWriteWorker(file, { pragmas: ['busy_timeout = 5000'] })
  const pending = writes.commit([insertNote('c-1', 'before close')])
  await writes.close()
  await pending
  assert.deepEqual(await bodies('c-'), ['before close'])
  await assert.rejects(writes.commit([insertNote('c-2', 'after close')]), /the store is closed/)
})

test('a main-connection transaction that reads and then writes succeeds when the worker commits meanwhile', async () => {
  // With a deferred `begin` the transaction's read starts a snapshot; once the worker has committed,
  // its first write cannot upgrade that snapshot and fails at once (SQLITE_BUSY, no waiting). So
  // transactions on the main connection take the write lock when they begin, and the worker waits.
  let workerDone = false
  await store.db.transaction().execute(async (transaction) => {
    assert.deepEqual(
      (await sql<{ body: string }>`select body from notes where id like 'd-%'`.execute(transaction)).rows,
      [],
    )
    void store.writes.commit([insertNote('d-1', 'from the worker')]).then(() => (workerDone = true))
    await sleep(100)
    await sql`insert into notes (id, body) values ('d-0', 'from the main connection')`.execute(transaction)
    assert.equal(workerDone, false, 'the worker waits for the transaction')
  })
  while (!workerDone) await sleep(5)
  assert.deepEqual(await bodies('d-'), ['from the main connection', 'from the worker'])
})
