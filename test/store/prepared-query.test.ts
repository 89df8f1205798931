// PreparedQuery: compiled once, run with new values, on SQLite and, with TEST_DATABASE_URL, PostgreSQL.
// The rows it returns must be the rows the same Kysely query returns when built and compiled each time.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { Kysely } from 'kysely'
import type { Database } from '../../src/store/database.ts'
import { PreparedQuery, PreparedQueryCache } from '../../src/store/prepared-query.ts'
import { storeEngines, useMigratedStore } from '../support/test-store.ts'

const models = ['m/a', 'm/b', 'm/c'] as const

/** Ledger rows (a table without foreign keys) with `end_user` null on every third row, so the `or` below has both sides to match. */
async function seed(db: Kysely<Database>): Promise<void> {
  const rows = Array.from({ length: 30 }, (_, index) => ({
    id: `row-${String(index).padStart(2, '0')}`,
    generation_id: `gen-${index}`,
    attempt: 1,
    key_hash: 'k'.repeat(64),
    workspace_id: 'w',
    organization_id: 'o',
    model: models[index % 3]!,
    provider: `provider-${index % 2}`,
    prompt_tokens: index,
    completion_tokens: index % 4,
    reasoning_tokens: 0,
    cached_tokens: 0,
    cache_write_tokens: 0,
    cost_nano: `${index}000`,
    is_byok: 0,
    end_user: index % 3 === 0 ? null : `2026-12-0${1 + (index % 7)}T00:00:00.000Z`,
    created_at: `2026-12-0${1 + (index % 5)}T00:00:00.000Z`,
  }))
  await db.insertInto('ledger_entries').values(rows).execute()
}

function dueBuilder(db: Kysely<Database>) {
  return (now: string, limit: number, provider: string) =>
    db
      .selectFrom('ledger_entries')
      .select(['id', 'completion_tokens'])
      .where('model', 'in', ['m/a', 'm/c'])
      .where('provider', '=', provider)
      .where('created_at', '<=', now)
      .where((builder) => builder.or([builder('end_user', 'is', null), builder('end_user', '<', now)]))
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
}

for (const engine of storeEngines()) {
  describe(`prepared queries on ${engine.name}`, { skip: engine.skip }, () => {
    const store = useMigratedStore(engine, (opened) => seed(opened.db))

    test('each set of values returns what the query built anew returns: repeated, reordered and constant values', async () => {
      const build = dueBuilder(store().db)
      const prepared = new PreparedQuery(3, build)
      const cases: [string, number, string][] = [
        ['2026-12-03T00:00:00.000Z', 5, 'provider-0'],
        ['2026-12-05T12:00:00.000Z', 100, 'provider-1'],
        ['2026-12-01T00:00:00.000Z', 1, 'provider-0'],
        ['2026-11-01T00:00:00.000Z', 10, 'provider-1'],
      ]
      const seen = new Set<number>()
      for (const args of cases) {
        const expected = await build(...args).execute()
        const actual = (await store().db.executeQuery(prepared.compiled(...args))).rows
        assert.deepEqual(actual, expected, args.join(' '))
        seen.add(expected.length)
      }
      assert.ok(seen.size >= 3, `the cases return different row counts (${[...seen].join(', ')})`)
      assert.equal(prepared.sql, build('x', 1, 'y').compile().sql)
    })

    test('an argument the query never binds is refused when prepared', () => {
      assert.throws(
        () =>
          new PreparedQuery(2, (id: string, _unused: string) =>
            store().db.selectFrom('ledger_entries').select('id').where('id', '=', id),
          ),
        /left 1 argument\(s\) unbound/,
      )
    })

    test('a cache keeps one prepared query per key and starts over past its limit', async () => {
      const cache = new PreparedQueryCache<[], { id: string }>(0, 2)
      const byModel = (model: string) => () =>
        store().db.selectFrom('ledger_entries').select('id').where('model', '=', model).orderBy('id')
      const first = cache.get('m/a', byModel('m/a'))
      assert.equal(cache.get('m/a', byModel('m/b')), first, 'the key, not the builder, names the query')
      const second = cache.get('m/b', byModel('m/b'))
      const rows = (await store().db.executeQuery(second.compiled())).rows
      assert.equal(rows.length, 10)
      assert.deepEqual(rows, await byModel('m/b')().execute())
      cache.get('m/c', byModel('m/c'))
      assert.notEqual(cache.get('m/a', byModel('m/a')), first, 'past the limit the cache started over')
    })
  })
}
