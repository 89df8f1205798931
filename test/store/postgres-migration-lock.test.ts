// The migration lock is one store's: a store migrates while other stores of the same PostgreSQL database
// hold their migration locks (and while anything holds kysely's own fixed lock id), two instances of one
// store starting at once on a new schema both start (the schema created once, each migration applied
// once), and a store whose own lock is held waits for it.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import pg from 'pg'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { migrateToLatest } from '../../src/store/migrate.ts'
import { migrations } from '../../src/store/migrations/index.ts'
import { createPostgresDatabase, type TestDatabase } from '../support/test-store.ts'
import { postgresTarget } from '../support/test-services.ts'

const postgres = postgresTarget()
const all = Object.keys(migrations).length
/** The advisory lock id kysely's own PostgreSQL adapter takes for every store. */
const kyselyLockId = '3853314791062309107'

/** A client holding session advisory locks: kysely's fixed id and the named stores' migration locks. */
async function holdLocks(schemas: readonly string[]): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: postgres.url! })
  await client.connect()
  await client.query(`select pg_advisory_lock(${kyselyLockId})`)
  for (const schema of schemas)
    await client.query(`select pg_advisory_lock(hashtextextended('switchyard-migrations:' || $1::text, 0))`, [schema])
  return client
}

async function withStores<T>(count: number, body: (stores: Store[], databases: TestDatabase[]) => Promise<T>) {
  const databases = Array.from({ length: count }, () => createPostgresDatabase(postgres.url!))
  const stores = databases.map((database) => openStore(database.url))
  try {
    return await body(stores, databases)
  } finally {
    for (const store of stores) await store.close()
    for (const database of databases) await database.dispose()
  }
}

test(
  "a store migrates while other stores' migration locks and kysely's fixed lock are held",
  { skip: postgres.skip, timeout: 120_000 },
  async () => {
    await withStores(2, async ([sibling, store]) => {
      const holder = await holdLocks([sibling!.schema!, 'public'])
      try {
        // Were the lock shared, this would wait until the holder lets go, which it does only afterwards.
        assert.equal((await migrateToLatest(store!)).applied.length, all)
        assert.equal((await migrateToLatest(store!)).applied.length, 0, 'an up-to-date store applies nothing')
      } finally {
        await holder.end()
      }
    })
  },
)

test('two instances of one store migrating at once apply every migration once', { skip: postgres.skip }, async () => {
  await withStores(1, async (_stores, [database]) => {
    const instances = [openStore(database!.url), openStore(database!.url)]
    try {
      const reports = await Promise.all(instances.map((instance) => migrateToLatest(instance)))
      assert.deepEqual(reports.map((report) => report.applied.length).sort(), [0, all])
      const { rows } = await sql(database!, 'select count(*)::int as n from kysely_migration')
      assert.equal(rows[0]!.n, all)
    } finally {
      for (const instance of instances) await instance.close()
    }
  })
})

test('a store whose own migration lock is held waits for it, then migrates', { skip: postgres.skip }, async () => {
  await withStores(1, async ([store]) => {
    const holder = await holdLocks([store!.schema!])
    let settled = false
    const migrating = migrateToLatest(store!).finally(() => (settled = true))
    try {
      // The store's connection is seen waiting on an advisory lock before the holder lets go.
      for (;;) {
        const { rows } = await holder.query<{ n: number }>(
          `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and pid <> pg_backend_pid()
             and objid = (hashtextextended('switchyard-migrations:' || $1::text, 0) & 4294967295)::oid`,
          [store!.schema!],
        )
        if (rows[0]!.n > 0) break
        assert.equal(settled, false, 'the migration finished while its lock was held')
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      assert.equal(settled, false)
    } finally {
      await holder.end()
    }
    assert.equal((await migrating).applied.length, all)
  })
})

async function sql(database: TestDatabase, text: string): Promise<pg.QueryResult<{ n: number }>> {
  const client = new pg.Client({ connectionString: postgres.url!, options: `-c search_path=${schemaOf(database)}` })
  await client.connect()
  try {
    return await client.query<{ n: number }>(text)
  } finally {
    await client.end()
  }
}

const schemaOf = (database: TestDatabase): string => new URL(database.url).searchParams.get('schema')!
