// Property: spend is bounded by what was reserved. Random requests reserve against a key limit, a
// budget and the organization's credits, concurrently in random interleavings, and finish by settling
// (with a reported cost often far above the reservation) or by releasing. At every step no scope's
// spent + held passes its limit (no overshoot allowance at all), every reservation is settled or
// released exactly once (a repeat changes nothing), what was left unbilled is exactly the excess over
// the reservations, and the ledger holds one row per settlement whose costs sum to the key's spend.
import { after, describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { ManualClock } from '../../test/support/manual-clock.ts'
import { accountingEngines, closeEngineClients } from '../../test/support/accounting-engines.ts'
import { isGatewayError } from '../domain/errors.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { LimitedScope, SpendCounters } from '../counters/spend-counters.ts'
import { createAccountingFixture, type AccountingFixture } from './accounting.fixture.ts'
import type { Reservation } from './accounting-service.ts'
import { keySpendScopeId } from './key-scopes.ts'

after(closeEngineClients)

interface PlannedRequest {
  readonly hold: bigint
  /** The cost of the usage the provider reports; often above `hold`. */
  readonly reported: bigint
  readonly fate: 'settle' | 'release'
  readonly repeat: boolean
  readonly withBudget: boolean
  readonly reserveAt: number
  readonly finishAfter: number
}

interface Scenario {
  readonly keyLimit: bigint
  readonly budgetLimit: bigint
  readonly grant: bigint
  readonly requests: readonly PlannedRequest[]
}

const scenarioArbitrary: fc.Arbitrary<Scenario> = fc.record({
  keyLimit: fc.bigInt({ min: 0n, max: 20_000n }),
  budgetLimit: fc.bigInt({ min: 0n, max: 10_000n }),
  grant: fc.bigInt({ min: 0n, max: 15_000n }),
  requests: fc.array(
    fc
      .record({
        hold: fc.bigInt({ min: 0n, max: 1_000n }),
        factor: fc.oneof(fc.constant(100n), fc.bigInt({ min: 0n, max: 100n }), fc.bigInt({ min: 101n, max: 400n })),
        fate: fc.constantFrom<'settle' | 'release'>('settle', 'settle', 'release'),
        repeat: fc.boolean(),
        withBudget: fc.boolean(),
        reserveAt: fc.nat({ max: 30 }),
        finishAfter: fc.nat({ max: 8 }),
      })
      .map(({ factor, ...rest }) => ({ ...rest, reported: (rest.hold * factor) / 100n })),
    { minLength: 1, maxLength: 120 },
  ),
})

/** Groups of steps that run concurrently: every reserve and finish falling at the same time. */
function schedule(requests: readonly PlannedRequest[]): { index: number; finish: boolean }[][] {
  const groups = new Map<number, { index: number; finish: boolean }[]>()
  requests.forEach((request, index) => {
    for (const [time, finish] of [
      [request.reserveAt, false],
      [request.reserveAt + request.finishAfter + 1, true],
    ] as const) {
      const group = groups.get(time) ?? []
      groups.set(time, group)
      group.push({ index, finish })
    }
  })
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([, group]) => group)
}

async function runScenario(
  fixture: AccountingFixture,
  counters: SpendCounters,
  clock: ManualClock,
  scenario: Scenario,
  run: number,
): Promise<void> {
  const key = await fixture.createKey({ limitUsd: (Number(scenario.keyLimit) / 1e9).toFixed(9), limitReset: 'daily' })
  const budget: LimitedScope = { id: `budget:run-${run}`, limitNano: scenario.budgetLimit, ttlSeconds: 3600 }
  await fixture.grants.insert({
    id: `grant-${run}`,
    organization_id: key.organizationId,
    amount_nano: scenario.grant.toString(),
    note: null,
    created_at: clock.now().toISOString(),
  })
  const totalGrants = await fixture.credits.totalCreditsNano()
  const keyScope = keySpendScopeId(key.hash, 'usage', 'daily', clock)
  const limits = new Map([
    [keyScope, scenario.keyLimit],
    [budget.id, scenario.budgetLimit],
    [fixture.credits.scopeId, totalGrants],
  ])
  const held = new Map<number, Reservation>()
  const expected = { billed: 0n, excess: 0n, settlements: 0 }
  const excessBefore = fixture.service.unbilledExcessNano()

  const step = async ({ index, finish }: { index: number; finish: boolean }): Promise<void> => {
    const request = scenario.requests[index]!
    if (!finish) return reserve(fixture, key, run, index, request, budget, held)
    const reservation = held.get(index)
    if (reservation === undefined) return
    await finishReservation(fixture, reservation, request, expected)
  }

  for (const group of schedule(scenario.requests)) {
    await Promise.all(group.map(step))
    const balances = await counters.read([...limits.keys()])
    for (const [id, limit] of limits) {
      const { spentNano, reservedNano } = balances.get(id)!
      assert.ok(spentNano + reservedNano <= limit, `${id}: spent ${spentNano} + held ${reservedNano} > limit ${limit}`)
    }
  }

  const balances = await counters.read([keyScope])
  assert.deepEqual(balances.get(keyScope), { spentNano: expected.billed, reservedNano: 0n }, 'every hold was dropped')
  assert.equal(fixture.service.unbilledExcessNano() - excessBefore, expected.excess)
  await fixture.ledger.flush()
  const rows = await fixture.ledgerRepository.listForKey(key.hash)
  assert.equal(rows.length, expected.settlements, 'one ledger row per settled reservation')
  assert.equal(
    rows.reduce((sum, row) => sum + BigInt(row.cost_nano), 0n),
    expected.billed,
  )
}

async function reserve(
  fixture: AccountingFixture,
  key: ApiKeyRecord,
  run: number,
  index: number,
  request: PlannedRequest,
  budget: LimitedScope,
  held: Map<number, Reservation>,
): Promise<void> {
  try {
    const reservation = await fixture.service.reserve({
      key,
      generationId: `gen-${run}-${index}`,
      attempt: 1,
      worstCaseNano: request.hold,
      isByok: false,
      budgets: request.withBudget ? [budget] : [],
    })
    held.set(index, reservation)
  } catch (error) {
    assert.ok(isGatewayError(error) && error.status === 402, String(error))
  }
}

async function finishReservation(
  fixture: AccountingFixture,
  reservation: Reservation,
  request: PlannedRequest,
  expected: { billed: bigint; excess: bigint; settlements: number },
): Promise<void> {
  const input = { costNano: request.reported, model: 'acme/model', provider: 'acme' }
  if (request.fate === 'release') {
    await fixture.service.release(reservation)
    if (request.repeat) await fixture.service.release(reservation)
    return
  }
  const billed = request.reported < request.hold ? request.reported : request.hold
  const charge = await fixture.service.settle(reservation, input)
  assert.deepEqual(charge, { billedNano: billed, unbilledExcessNano: request.reported - billed })
  expected.billed += billed
  expected.excess += request.reported - billed
  expected.settlements += 1
  if (request.repeat) {
    // A repeat bills nothing more; it reports the same split, which the metric counts again.
    assert.deepEqual(await fixture.service.settle(reservation, input), charge)
    expected.excess += charge.unbilledExcessNano
  }
}

for (const engine of accountingEngines) {
  describe(`settlement bound on ${engine.name}`, { skip: engine.skip }, () => {
    test('concurrent reserve/settle/release with reported usage above the reservation never spends past any limit', async () => {
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
          fc.asyncProperty(scenarioArbitrary, (scenario) => runScenario(fixture, counters, clock, scenario, run++)),
          { numRuns: 40 },
        )
      } finally {
        await fixture.close()
        await database.dispose()
      }
    })
  })
}
