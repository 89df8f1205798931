// Redis ahead of the ledger (a process settled in Redis and died before its ledger commit): a plain
// replay cannot lower a counter, `rebuild-counters --reset` sets the ledger-fed counters back to the
// ledger, leaves budget counters alone, and refuses while a gateway holds reservations. On PostgreSQL +
// Redis, through the library and through the real command line.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { ManualClock } from '../../test/support/manual-clock.ts'
import { postgresTarget, redisTarget } from '../../test/support/test-services.ts'
import { createPostgresDatabase, type TestDatabase } from '../../test/support/test-store.ts'
import { openStore, type Store } from '../store/open-store.ts'
import { migrateToLatest } from '../store/migrate.ts'
import { createLedgerRepository, type LedgerRow } from '../store/repositories/ledger-repository.ts'
import { RedisSpendCounters } from '../counters/redis-spend-counters.ts'
import { ledgerRowScopes } from './ledger-scopes.ts'
import { replayLedger } from './replay-ledger.ts'
import { ledgerRow } from './ledger-row.fixture.ts'
import { resetLedgerCounters } from './reset-ledger-counters.ts'

const postgres = postgresTarget()
const redis = redisTarget()
const skip = postgres.skip || redis.skip
// The command line runs on the system clock, and replay ids are remembered for an hour of it.
const clock = new ManualClock(Date.now())
const prefix = `{sy-reset-${randomUUID()}}:`
let database: TestDatabase
let store: Store
let client: Redis
let counters: RedisSpendCounters

function row(generation: string, cost: string): LedgerRow {
  return ledgerRow(generation, {
    key_hash: 'key-reset',
    organization_id: 'org-reset',
    cost_nano: cost,
    created_at: clock.now().toISOString(),
  })
}

const scopes = ledgerRowScopes(row('any', '0'))
const spentOf = async (): Promise<bigint[]> =>
  [...(await counters.read(scopes.map((scope) => scope.id))).values()].map((balance) => balance.spentNano)

before(async () => {
  if (skip !== false) return
  database = createPostgresDatabase(postgres.url!)
  store = openStore(database.url)
  await migrateToLatest(store)
  client = new Redis(redis.url!, { maxRetriesPerRequest: 1 })
  counters = new RedisSpendCounters(client, clock, { keyPrefix: prefix })
})
after(async () => {
  if (skip !== false) return
  await client.quit()
  await store.close()
  await database.dispose()
})

test('--reset sets counters ahead of the ledger back to it; budgets and other keys stay', { skip }, async () => {
  const ledger = createLedgerRepository(store.db, store.writes)
  await ledger.insertMany([row('g1', '3000'), row('g2', '4000')])
  await replayLedger(ledger, counters)
  assert.deepEqual(new Set(await spentOf()), new Set([7000n]))
  // The lost commit: Redis settled 5000 that the ledger never received, and a budget spent 900.
  await counters.record({ id: 'settled-then-killed', scopes, amountNano: 5000n })
  await counters.record({ id: 'budget-spend', scopes: [{ id: 'budget:b1:d' }], amountNano: 900n })
  await replayLedger(ledger, counters)
  assert.deepEqual(new Set(await spentOf()), new Set([12_000n]), 'a plain replay cannot lower a counter')

  await counters.reserve({ reservationId: 'live', scopes: [{ id: 'budget:b1:d', limitNano: null }], amountNano: 1n })
  assert.deepEqual(await resetLedgerCounters(ledger, counters), { kind: 'busy', held: 1 })
  assert.deepEqual(new Set(await spentOf()), new Set([12_000n]), 'a refused reset changes nothing')
  await counters.release('live')

  const outcome = await resetLedgerCounters(ledger, counters)
  assert.deepEqual(outcome, { kind: 'reset', scopes: scopes.length, rows: 2, recorded: 2 })
  assert.deepEqual(new Set(await spentOf()), new Set([7000n]))
  assert.equal((await counters.read(['budget:b1:d'])).get('budget:b1:d')?.spentNano, 900n)
})

test('the command line: rebuild-counters --reset, after a plain run that could not repair', { skip }, async () => {
  await counters.record({ id: 'killed-again', scopes, amountNano: 250n })
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'main.ts'), ...args], {
      env: { LOG_LEVEL: 'silent', DATABASE_URL: database.url, REDIS_URL: redis.url! },
      encoding: 'utf8',
      timeout: 120_000,
    })
  const plain = run('ledger', 'rebuild-counters', '--key-prefix', prefix)
  assert.equal(plain.status, 0, plain.stderr)
  assert.match(plain.stdout, /replayed 2 ledger rows into the counters \(0 recorded, 2 already present\)/)
  assert.deepEqual(new Set(await spentOf()), new Set([7250n]))
  const reset = run('ledger', 'rebuild-counters', '--reset', '--key-prefix', prefix)
  assert.equal(reset.status, 0, reset.stderr)
  assert.match(reset.stdout, /^reset \d+ counters; replayed 2 ledger rows into the counters \(2 recorded/)
  assert.deepEqual(new Set(await spentOf()), new Set([7000n]))
})
