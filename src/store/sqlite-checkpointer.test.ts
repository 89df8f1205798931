// The checkpointer moves committed pages from the WAL into the database file in the background: data
// written in one small transaction (far below the main connection's own checkpoint threshold) reaches
// the database file within the interval, with no further statement on the main connection.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import { openStore } from './open-store.ts'

test('committed pages reach the database file without a checkpoint on the main connection', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-checkpoint-'))
  const file = join(directory, 'store.db')
  const store = openStore(`sqlite:${file}`)
  try {
    await sql`create table blobs (id integer primary key, body text not null)`.execute(store.db)
    await store.db.transaction().execute(async (transaction) => {
      for (let index = 0; index < 200; index++)
        await sql`insert into blobs (body) values (${'x'.repeat(10_000)})`.execute(transaction)
    })
    const before = statSync(file).size
    assert.ok(
      before < 1_000_000,
      `the pages are still in the WAL right after the commit (${before} bytes in the database file)`,
    )
    const deadline = Date.now() + 5000
    while (statSync(file).size < 2_000_000 && Date.now() < deadline) await sleep(100)
    assert.ok(
      statSync(file).size >= 2_000_000,
      `the database file holds the 2 MB after the checkpoint (${statSync(file).size} bytes)`,
    )
  } finally {
    await store.close()
    rmSync(directory, { recursive: true, force: true })
  }
})
