// Property tests of the SpendCounters contract: random reservations, some settling above their hold,
// issued concurrently in random interleavings against a key limit and optionally a second (budget)
// scope. After every step the engine's balances must equal the model built from the outcomes it
// returned, and no scope may exceed its limit by more than the overshoot of settlements so far:
//   spent + reserved <= limit + sum over settled requests of max(0, actual - hold).
// Run one at a time, every admission decision must also match the model exactly.

import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { ManualClock } from '../../test/support/manual-clock.ts'
import { fixtureLeaseMs as LEASE_MS, withCounters } from './spend-counters.fixture.ts'
import type { SpendCountersFactory } from './spend-counters.fixture.ts'
import type { LimitedScope, SpendCounters } from './spend-counters.ts'

type Fate = 'settle' | 'release' | 'abandon'

interface PlannedRequest {
  readonly hold: bigint
  readonly actual: bigint
  readonly fate: Fate
  readonly withBudget: boolean
  readonly reserveAt: number
  readonly finishAfter: number
}

interface Scenario {
  readonly keyLimit: bigint
  readonly budgetLimit: bigint
  readonly requests: readonly PlannedRequest[]
  readonly sequential: boolean
}

interface ScopeModel {
  spent: bigint
  reserved: bigint
  overshoot: bigint
}

function scenarioArbitrary(twoScopes: boolean): fc.Arbitrary<Scenario> {
  const request = fc
    .record({
      hold: fc.bigInt({ min: 0n, max: 1_000n }),
      delta: fc.oneof(fc.constant(0n), fc.bigInt({ min: -1_000n, max: 0n }), fc.bigInt({ min: 1n, max: 500n })),
      fate: fc.constantFrom<Fate>('settle', 'settle', 'release', 'abandon'),
      withBudget: twoScopes ? fc.boolean() : fc.constant(false),
      reserveAt: fc.nat({ max: 40 }),
      finishAfter: fc.nat({ max: 10 }),
    })
    .map(({ delta, ...rest }) => ({ ...rest, actual: rest.hold + delta < 0n ? 0n : rest.hold + delta }))
  return fc.record({
    keyLimit: fc.bigInt({ min: 0n, max: 40_000n }),
    budgetLimit: fc.bigInt({ min: 0n, max: 10_000n }),
    requests: fc.array(request, { minLength: 1, maxLength: 500, size: 'max' }),
    sequential: fc.boolean(),
  })
}

interface Step {
  readonly index: number
  readonly reserve: boolean
  readonly finish: boolean
}

/** Groups of events that run concurrently: all events at one time, or one event per group. */
function schedule(scenario: Scenario): Step[][] {
  const events = scenario.requests.flatMap((request, index) => {
    const reserve = { time: request.reserveAt, order: 0, index }
    return request.fate === 'abandon'
      ? [reserve]
      : [reserve, { time: request.reserveAt + request.finishAfter, order: 1, index }]
  })
  events.sort((a, b) => a.time - b.time || a.order - b.order || a.index - b.index)
  if (scenario.sequential)
    return events.map((event) => [{ index: event.index, reserve: event.order === 0, finish: event.order === 1 }])
  const groups = new Map<number, Map<number, Step>>()
  for (const event of events) {
    const group = groups.get(event.time) ?? new Map<number, Step>()
    groups.set(event.time, group)
    const step = group.get(event.index) ?? { index: event.index, reserve: false, finish: false }
    group.set(event.index, {
      ...step,
      reserve: step.reserve || event.order === 0,
      finish: step.finish || event.order === 1,
    })
  }
  return [...groups.values()].map((group) => [...group.values()])
}

async function runScenario(counters: SpendCounters, clock: ManualClock, scenario: Scenario): Promise<void> {
  const key: LimitedScope = { id: 'key:h:limit:m:2026-11', limitNano: scenario.keyLimit, ttlSeconds: 3600 }
  const budget: LimitedScope = { id: 'budget:g:d:2026-11-22', limitNano: scenario.budgetLimit, ttlSeconds: 3600 }
  const models = new Map<string, ScopeModel>(
    [key, budget].map((scope) => [scope.id, { spent: 0n, reserved: 0n, overshoot: 0n }]),
  )
  const limits = new Map([key, budget].map((scope) => [scope.id, scope.limitNano ?? 0n]))
  const scopesOf = (request: PlannedRequest): LimitedScope[] => (request.withBudget ? [key, budget] : [key])
  const modelOf = (id: string): ScopeModel => models.get(id) ?? assert.fail(`no model for ${id}`)
  const admitted = new Set<number>()

  const runStep = async (step: Step): Promise<void> => {
    const request = scenario.requests[step.index] ?? assert.fail('no such request')
    const reservationId = `r${step.index}`
    if (step.reserve) {
      const predicted = scopesOf(request).every((scope) => {
        const model = modelOf(scope.id)
        return model.spent + model.reserved + request.hold <= (limits.get(scope.id) ?? 0n)
      })
      const outcome = await counters.reserve({ reservationId, scopes: scopesOf(request), amountNano: request.hold })
      assert.notEqual(outcome.kind, 'duplicate')
      if (scenario.sequential) assert.equal(outcome.kind === 'admitted', predicted, `admission of ${reservationId}`)
      if (outcome.kind === 'admitted') admitted.add(step.index)
    }
    if (!step.finish) return
    if (!admitted.has(step.index)) {
      assert.deepEqual(await counters.settle(reservationId, request.actual), { kind: 'unknown' })
    } else if (request.fate === 'settle') {
      assert.deepEqual(await counters.settle(reservationId, request.actual), {
        kind: 'settled',
        amountNano: request.actual,
      })
    } else {
      assert.deepEqual(await counters.release(reservationId), { kind: 'released' })
    }
  }

  const applyToModel = (step: Step): void => {
    const request = scenario.requests[step.index] ?? assert.fail('no such request')
    if (!admitted.has(step.index)) return
    for (const scope of scopesOf(request)) {
      const model = modelOf(scope.id)
      if (step.reserve) model.reserved += request.hold
      if (step.finish) model.reserved -= request.hold
      if (step.finish && request.fate === 'settle') {
        model.spent += request.actual
        if (request.actual > request.hold) model.overshoot += request.actual - request.hold
      }
    }
  }

  const checkBalances = async (): Promise<void> => {
    const balances = await counters.read([key.id, budget.id])
    for (const [id, model] of models) {
      const balance = balances.get(id) ?? assert.fail(`no balance for ${id}`)
      assert.deepEqual(
        { spent: balance.spentNano, reserved: balance.reservedNano },
        { spent: model.spent, reserved: model.reserved },
        id,
      )
      const limit = limits.get(id) ?? 0n
      assert.ok(
        balance.spentNano + balance.reservedNano <= limit + model.overshoot,
        `${id}: ${balance.spentNano} + ${balance.reservedNano} > ${limit} + ${model.overshoot}`,
      )
    }
  }

  for (const group of schedule(scenario)) {
    await Promise.all(group.map(runStep))
    group.forEach(applyToModel)
    await checkBalances()
  }

  // Abandoned holds lapse with their lease; what remains is exactly the settled spend.
  clock.advance(LEASE_MS)
  for (const model of models.values()) model.reserved = 0n
  await checkBalances()
}

export function runSpendCountersProperties(factory: SpendCountersFactory): void {
  describe('properties', () => {
    const cases = [
      { title: 'one key limit', twoScopes: false },
      { title: 'a key limit and a budget', twoScopes: true },
    ]
    for (const { title, twoScopes } of cases) {
      test(`${title}: random concurrent reserve/settle/release never overspends past the admitted overshoot and restores exactly`, async () => {
        await fc.assert(
          fc.asyncProperty(scenarioArbitrary(twoScopes), (scenario) =>
            withCounters(factory, (counters, clock) => runScenario(counters, clock, scenario)),
          ),
          { numRuns: 30 },
        )
      })
    }
  })
}
