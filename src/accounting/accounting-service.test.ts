import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import { ManualClock } from '../../test/support/manual-clock.ts'
import { createSqliteDatabase } from '../../test/support/test-store.ts'
import { redisTarget } from '../../test/support/test-services.ts'
import { isGatewayError } from '../domain/errors.ts'
import { MemorySpendCounters } from '../counters/memory-spend-counters.ts'
import { RedisSpendCounters } from '../counters/redis-spend-counters.ts'
import type { SpendCounters } from '../counters/spend-counters.ts'
import { keySpendScopeId } from './key-scopes.ts'
import { createAccountingFixture, type AccountingFixture } from './accounting.fixture.ts'
import { replayLedger } from './replay-ledger.ts'
import { creditScopeId } from './credit-balance.ts'

const redis = redisTarget()
const clients: Redis[] = []
after(async () => {
  await Promise.all(clients.map((client) => client.quit().catch(() => undefined)))
})

type Engine = { name: string; skip: string | false; make: (clock: ManualClock) => SpendCounters }
const engines: Engine[] = [
  { name: 'memory', skip: false, make: (clock) => new MemorySpendCounters(clock) },
  {
    name: 'redis',
    skip: redis.skip,
    make: (clock) => {
      const client = new Redis(redis.url!, { maxRetriesPerRequest: 1 })
      clients.push(client)
      return new RedisSpendCounters(client, clock, { keyPrefix: `{switchyard-test:${randomUUID()}}:` })
    },
  },
]

const nano = (usd: number): bigint => BigInt(Math.round(usd * 1e9))

async function withFixture(
  engine: Engine,
  run: (fixture: AccountingFixture, clock: ManualClock, counters: SpendCounters) => Promise<void>,
  enforceCredits = false,
): Promise<void> {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z')
  const database = createSqliteDatabase()
  const counters = engine.make(clock)
  const fixture = await createAccountingFixture({ databaseUrl: database.url, counters, clock, enforceCredits })
  try {
    await run(fixture, clock, counters)
  } finally {
    await fixture.close()
    await database.dispose()
  }
}

async function expectRefusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => assert.fail('expected a 402'),
    (thrown: unknown) => thrown,
  )
  assert.ok(isGatewayError(error), String(error))
  assert.equal(error.status, 402)
  return error.message
}

for (const engine of engines) {
  describe(`accounting service on ${engine.name} counters`, { skip: engine.skip }, () => {
    test('200 concurrent reservations never pass the key limit; the ledger equals the counters to the nano-dollar', async () => {
      await withFixture(engine, async (fixture, clock, counters) => {
        const key = await fixture.createKey({ limitUsd: '1', limitReset: 'monthly' })
        const worstCase = nano(0.013) // 76 fit under $1 (76 * 0.013 = 0.988)
        const attempts = Array.from({ length: 200 }, (_, index) =>
          fixture.service
            .reserve({ key, generationId: `gen-${index}`, attempt: 1, worstCaseNano: worstCase, isByok: false })
            .then(
              (reservation) => reservation,
              (error: unknown) => {
                assert.ok(isGatewayError(error) && error.status === 402, String(error))
                return null
              },
            ),
        )
        const reservations = (await Promise.all(attempts)).filter((reservation) => reservation !== null)
        assert.equal(reservations.length, 76)
        await Promise.all(
          reservations.map((reservation, index) =>
            index % 5 === 0
              ? fixture.service.release(reservation)
              : fixture.service.settle(reservation, {
                  costNano: worstCase - BigInt(index * 7919),
                  model: 'acme/fast-1',
                  provider: 'acme',
                  promptTokens: index,
                  completionTokens: 2 * index,
                }),
          ),
        )
        await fixture.ledger.flush()
        const rows = await fixture.ledgerRepository.listForKey(key.hash)
        assert.equal(rows.length, reservations.filter((_, index) => index % 5 !== 0).length)
        const ledgerTotal = rows.reduce((sum, row) => sum + BigInt(row.cost_nano), 0n)
        const scopes = ['lifetime', 'monthly'].map((period) =>
          keySpendScopeId(key.hash, 'usage', period as 'lifetime' | 'monthly', clock),
        )
        const balances = await counters.read([...scopes, creditScopeId(key.organizationId)])
        for (const id of [...scopes, creditScopeId(key.organizationId)]) {
          assert.equal(balances.get(id)?.spentNano, ledgerTotal, id)
          assert.equal(balances.get(id)?.reservedNano, 0n, id)
        }
        assert.ok(ledgerTotal <= nano(1))
      })
    })

    test('a refused reservation names the limit, the amount and when it resets', async () => {
      await withFixture(engine, async (fixture) => {
        const key = await fixture.createKey({ limitUsd: '5', limitReset: 'monthly' })
        const message = await expectRefusal(
          fixture.service.reserve({ key, generationId: 'gen-big', attempt: 1, worstCaseNano: nano(6), isByok: false }),
        )
        assert.match(message, /^Key limit of \$5\.00 \(monthly\) exceeded; resets at 2026-12-01T00:00:00Z/)
        assert.match(message, /needs up to \$6\.00/)
        const lifetime = await fixture.createKey({ limitUsd: '0.5' })
        const never = await expectRefusal(
          fixture.service.reserve({
            key: lifetime,
            generationId: 'gen-life',
            attempt: 1,
            worstCaseNano: nano(1),
            isByok: false,
          }),
        )
        assert.match(never, /^Key limit of \$0\.50 exceeded .*never resets: raise it with PATCH \/api\/v1\/keys\//)
      })
    })

    test('settle is idempotent per generation and attempt; attempts are separate rows', async () => {
      await withFixture(engine, async (fixture, clock, counters) => {
        const key = await fixture.createKey()
        const first = await fixture.service.reserve({
          key,
          generationId: 'gen-a',
          attempt: 1,
          worstCaseNano: nano(1),
          isByok: false,
        })
        const second = await fixture.service.reserve({
          key,
          generationId: 'gen-a',
          attempt: 2,
          worstCaseNano: nano(1),
          isByok: false,
        })
        const usage = { costNano: 123_456_789n, model: 'm', provider: 'p' }
        await fixture.service.settle(first, usage)
        await fixture.service.settle(first, usage)
        await fixture.ledger.flush()
        await fixture.service.settle(first, usage)
        await fixture.service.settle(second, { ...usage, costNano: 1n })
        await fixture.ledger.flush()
        const rows = await fixture.ledgerRepository.listForKey(key.hash)
        assert.deepEqual(
          rows.map((row) => [row.generation_id, row.attempt, row.cost_nano]),
          [
            ['gen-a', 1, '123456789'],
            ['gen-a', 2, '1'],
          ],
        )
        const id = keySpendScopeId(key.hash, 'usage', 'lifetime', clock)
        assert.equal((await counters.read([id])).get(id)?.spentNano, 123_456_790n)
      })
    })

    test('BYOK spend counts toward the limit only with include_byok_in_limit, and never toward credits', async () => {
      await withFixture(engine, async (fixture, clock, counters) => {
        const key = await fixture.createKey({ limitUsd: '1', includeByokInLimit: true })
        const byok = await fixture.service.reserve({
          key,
          generationId: 'gen-b',
          attempt: 1,
          worstCaseNano: nano(0.9),
          isByok: true,
        })
        await fixture.service.settle(byok, { costNano: nano(0.9), model: 'm', provider: 'p' })
        await expectRefusal(
          fixture.service.reserve({ key, generationId: 'gen-c', attempt: 1, worstCaseNano: nano(0.2), isByok: false }),
        )
        const credit = creditScopeId(key.organizationId)
        const byokId = keySpendScopeId(key.hash, 'byok', 'lifetime', clock)
        const balances = await counters.read([credit, byokId])
        assert.equal(balances.get(credit)?.spentNano ?? 0n, 0n)
        assert.equal(balances.get(byokId)?.spentNano, nano(0.9))
      })
    })

    test('with credits enforced, a reservation past grants - usage is refused naming the balance', async () => {
      await withFixture(
        engine,
        async (fixture, clock) => {
          const key = await fixture.createKey()
          await expectRefusal(
            fixture.service.reserve({ key, generationId: 'gen-0', attempt: 1, worstCaseNano: 1n, isByok: false }),
          )
          await fixture.grants.insert({
            id: 'g1',
            organization_id: key.organizationId,
            amount_nano: nano(2).toString(),
            note: null,
            created_at: clock.now().toISOString(),
          })
          const held = await fixture.service.reserve({
            key,
            generationId: 'gen-1',
            attempt: 1,
            worstCaseNano: nano(1.5),
            isByok: false,
          })
          await fixture.service.settle(held, { costNano: nano(1.25), model: 'm', provider: 'p' })
          const message = await expectRefusal(
            fixture.service.reserve({ key, generationId: 'gen-2', attempt: 1, worstCaseNano: nano(1), isByok: false }),
          )
          assert.match(
            message,
            /^Insufficient credits: the balance is \$0\.75 .*needs up to \$1\.00.*POST \/api\/v1\/credits\/grants/,
          )
          await fixture.service.reserve({
            key,
            generationId: 'gen-3',
            attempt: 1,
            worstCaseNano: nano(0.75),
            isByok: false,
          })
          await fixture.service.reserve({
            key,
            generationId: 'gen-4',
            attempt: 1,
            worstCaseNano: nano(1),
            isByok: true,
          })
        },
        true,
      )
    })

    test('replaying the ledger into empty counters rebuilds every total, and a second replay adds nothing', async () => {
      await withFixture(engine, async (fixture, clock, counters) => {
        const key = await fixture.createKey({ limitUsd: '10', limitReset: 'daily' })
        for (const [index, isByok] of [false, true, false].entries()) {
          const reservation = await fixture.service.reserve({
            key,
            generationId: `gen-r${index}`,
            attempt: 1,
            worstCaseNano: nano(1),
            isByok,
          })
          await fixture.service.settle(reservation, { costNano: nano(0.25) + BigInt(index), model: 'm', provider: 'p' })
        }
        await fixture.ledger.flush()
        const ids = (['usage', 'byok', 'total'] as const).flatMap((family) =>
          (['lifetime', 'daily', 'weekly', 'monthly'] as const).map((period) =>
            keySpendScopeId(key.hash, family, period, clock),
          ),
        )
        ids.push(creditScopeId(key.organizationId))
        const before = await counters.read(ids)
        const fresh = engine.make(clock)
        assert.deepEqual(await replayLedger(fixture.ledgerRepository, fresh, 2), { rows: 3, recorded: 3 })
        assert.deepEqual(await replayLedger(fixture.ledgerRepository, fresh, 2), { rows: 3, recorded: 0 })
        const rebuilt = await fresh.read(ids)
        for (const id of ids) assert.equal(rebuilt.get(id)?.spentNano ?? 0n, before.get(id)?.spentNano ?? 0n, id)
        assert.equal(rebuilt.get(keySpendScopeId(key.hash, 'total', 'daily', clock))?.spentNano, nano(0.75) + 3n)
      })
    })
  })
}
