// Property of the call core's metered call (reserve -> attempt -> settle or release): random concurrent
// calls, in an interleaving fast-check's scheduler picks, reserve a random worst case against a key
// limit, sometimes a budget, and the organization's credits; each attempt then charges usage priced at
// up to four times its reservation (a provider reporting more than max_tokens), charges nothing, or
// throws before or after charging. After every scheduled step no scope's spent + held passes its limit;
// at the end every reservation made was closed exactly once (settled when something was charged,
// released otherwise), nothing is still held, each scope's spend is the sum of min(charged, reserved),
// and the excess is left unbilled. On SQLite with memory counters, SQLite with Redis, PostgreSQL with Redis.
import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import pino from 'pino'
import { ManualClock } from '../../../test/support/manual-clock.ts'
import { accountingEngines, closeEngineClients } from '../../../test/support/accounting-engines.ts'
import { createAccountingFixture, type AccountingFixture } from '../../accounting/accounting.fixture.ts'
import type { Reservation, ReserveInput, SettleInput } from '../../accounting/accounting-service.ts'
import { keySpendScopeId } from '../../accounting/key-scopes.ts'
import type { LimitedScope, SpendCounters } from '../../counters/spend-counters.ts'
import { isGatewayError } from '../../domain/errors.ts'
import { meteredCall, type MeterDeps } from './metered-call.ts'

after(closeEngineClients)

type Fate = 'answer' | 'free' | 'fail-before' | 'fail-after'

interface PlannedCall {
  readonly hold: bigint
  /** The priced usage the provider reports, in percent of the hold (above 100: more than reserved). */
  readonly percent: bigint
  readonly fate: Fate
  readonly withBudget: boolean
}

interface Scenario {
  readonly keyLimit: bigint
  readonly budgetLimit: bigint
  readonly grant: bigint
  readonly calls: readonly PlannedCall[]
}

const scenarioArbitrary: fc.Arbitrary<Scenario> = fc.record({
  keyLimit: fc.bigInt({ min: 0n, max: 20_000n }),
  budgetLimit: fc.bigInt({ min: 0n, max: 10_000n }),
  grant: fc.bigInt({ min: 0n, max: 15_000n }),
  calls: fc.array(
    fc.record({
      hold: fc.bigInt({ min: 0n, max: 1_000n }),
      percent: fc.oneof(fc.constant(100n), fc.bigInt({ min: 0n, max: 100n }), fc.bigInt({ min: 101n, max: 400n })),
      fate: fc.constantFrom<Fate>('answer', 'answer', 'free', 'fail-before', 'fail-after'),
      withBudget: fc.boolean(),
    }),
    { minLength: 1, maxLength: 40 },
  ),
})

/** The accounting as the core sees it, counting how each reservation was closed. */
function observedAccounting(fixture: AccountingFixture) {
  const closes = new Map<string, ('settle' | 'release')[]>()
  const close = (reservation: Reservation, how: 'settle' | 'release') =>
    closes.set(reservation.id, [...(closes.get(reservation.id) ?? []), how])
  const reserved = new Map<string, bigint>()
  const accounting: MeterDeps['policy']['accounting'] = {
    reserve: async (input: ReserveInput) => {
      const reservation = await fixture.service.reserve(input)
      reserved.set(reservation.id, reservation.amountNano)
      return reservation
    },
    settle: (reservation: Reservation, input: SettleInput) => {
      close(reservation, 'settle')
      return fixture.service.settle(reservation, input)
    },
    release: (reservation: Reservation) => {
      close(reservation, 'release')
      return fixture.service.release(reservation)
    },
  }
  return { accounting, closes, reserved }
}

async function runScenario(
  fixture: AccountingFixture,
  counters: SpendCounters,
  clock: ManualClock,
  scenario: Scenario,
  scheduler: fc.Scheduler,
  run: number,
): Promise<void> {
  const key = await fixture.createKey({ limitUsd: (Number(scenario.keyLimit) / 1e9).toFixed(9), limitReset: 'daily' })
  const budget: LimitedScope = { id: `budget:metered-${run}`, limitNano: scenario.budgetLimit, ttlSeconds: 3600 }
  const grant = { id: `grant-metered-${run}`, amount_nano: scenario.grant.toString(), note: null }
  await fixture.grants.insert({ ...grant, organization_id: key.organizationId, created_at: clock.now().toISOString() })
  const limits = new Map([
    [keySpendScopeId(key.hash, 'usage', 'daily', clock), scenario.keyLimit],
    [budget.id, scenario.budgetLimit],
    [fixture.credits.scopeId, await fixture.credits.totalCreditsNano()],
  ])
  const { accounting, closes, reserved } = observedAccounting(fixture)
  const errors: string[] = []
  const logger = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) })
  const charged = new Map<string, bigint>()
  const excessBefore = fixture.service.unbilledExcessNano()

  const calls = scenario.calls.map((call, index) => {
    const generationId = `gen-metered-${run}-${index}`
    const spend = { attempt: 1, worstCaseNano: call.hold, budgets: call.withBudget ? [budget] : [] }
    return meteredCall({ key, generationId }, spend, { logger, policy: { accounting } }, async (meter) => {
      await scheduler.schedule(Promise.resolve(), `${index} attempts`)
      if (call.fate === 'fail-before') throw new Error('the upstream failed')
      const costNano = call.fate === 'free' ? 0n : (call.hold * call.percent) / 100n
      const charge = meter.charge({ costNano, model: 'acme/model', provider: 'acme' })
      assert.equal(charge.billedNano, costNano < meter.reservedNano ? costNano : meter.reservedNano)
      charged.set(`${generationId}:1`, costNano)
      await scheduler.schedule(Promise.resolve(), `${index} answers`)
      if (call.fate === 'fail-after') throw new Error('the stream broke after its usage')
      return charge
    })
  })
  const checkLimits = async (): Promise<void> => {
    const balances = await counters.read([...limits.keys()])
    for (const [id, limit] of limits) {
      const { spentNano, reservedNano } = balances.get(id)!
      assert.ok(spentNano + reservedNano <= limit, `${id}: spent ${spentNano} + held ${reservedNano} > limit ${limit}`)
    }
  }
  const outcomes = await scheduler.waitFor(Promise.allSettled(calls), async (step) => {
    await step()
    await checkLimits()
  })
  await checkLimits()

  outcomes.forEach((outcome, index) => {
    const fate = scenario.calls[index]!.fate
    if (outcome.status === 'fulfilled') return assert.equal(fate === 'answer' || fate === 'free', true)
    const refused = isGatewayError(outcome.reason) && outcome.reason.status === 402
    assert.ok(refused || fate.startsWith('fail'), String(outcome.reason))
  })
  let billed = 0n
  let excess = 0n
  for (const [id, amount] of reserved) {
    const cost = charged.get(id) ?? 0n
    assert.deepEqual(closes.get(id), [cost > 0n ? 'settle' : 'release'], `${id} closed exactly once`)
    billed += cost < amount ? cost : amount
    excess += cost > amount ? cost - amount : 0n
  }
  assert.deepEqual(
    [...closes.keys()].filter((id) => !reserved.has(id)),
    [],
    'only reservations made are closed',
  )
  const keyScope = keySpendScopeId(key.hash, 'usage', 'daily', clock)
  assert.deepEqual((await counters.read([keyScope])).get(keyScope), { spentNano: billed, reservedNano: 0n })
  assert.equal(fixture.service.unbilledExcessNano() - excessBefore, excess)
  assert.deepEqual(errors, [], 'no reservation failed to close')
}

for (const engine of accountingEngines) {
  describe(`metered calls on ${engine.name}`, { skip: engine.skip }, () => {
    test('random interleavings with usage above the reservation: spend within every limit, each hold closed once', async () => {
      const clock = new ManualClock('2026-11-22T12:00:00.000Z')
      const database = engine.database()
      const counters = engine.counters(clock)
      const fixture = await createAccountingFixture({
        databaseUrl: database.url,
        counters,
        clock,
        enforceCredits: true,
      })
      let run = 0
      try {
        await fc.assert(
          fc.asyncProperty(scenarioArbitrary, fc.scheduler(), (scenario, scheduler) =>
            runScenario(fixture, counters, clock, scenario, scheduler, run++),
          ),
          { numRuns: 30 },
        )
      } finally {
        await fixture.close()
        await database.dispose()
      }
    })
  })
}
