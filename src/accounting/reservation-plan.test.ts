import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { ManualClock } from '../../test/support/manual-clock.ts'
import { MemorySpendCounters } from '../counters/memory-spend-counters.ts'
import { windowedScope } from './key-scopes.ts'
import { planReservation } from './reservation-plan.ts'
import type { KeyLimitSettings, ReservationPlanInput } from './reservation-plan.ts'

const noon = '2026-11-22T12:00:00.000Z' // a Sunday
const DAY = 86_400

function plan(key: KeyLimitSettings, overrides: Partial<ReservationPlanInput> = {}) {
  return planReservation({ keyHash: 'h', key, isByok: false, clock: new ManualClock(noon), ...overrides })
}

const summary = (scopes: ReturnType<typeof plan>['scopes']) =>
  scopes.map((scope) => [scope.id, scope.limitNano, scope.ttlSeconds])

describe('planReservation', () => {
  test("a non-BYOK call with a monthly limit puts the limit on this month's usage and tracks every window", () => {
    const result = plan({ limit: 10, limit_reset: 'monthly', include_byok_in_limit: false })
    assert.equal(result.keyLimitScopeId, 'key:h:usage:m:2026-11')
    assert.deepEqual(summary(result.scopes), [
      ['key:h:usage:m:2026-11', 10_000_000_000n, 8 * DAY + 12 * 3600 + DAY],
      ['key:h:usage:lifetime', null, undefined],
      ['key:h:usage:d:2026-11-22', null, 12 * 3600 + DAY],
      ['key:h:usage:w:2026-11-16', null, 12 * 3600 + DAY],
      ['key:h:total:lifetime', null, undefined],
      ['key:h:total:d:2026-11-22', null, 12 * 3600 + DAY],
      ['key:h:total:w:2026-11-16', null, 12 * 3600 + DAY],
      ['key:h:total:m:2026-11', null, 8 * DAY + 12 * 3600 + DAY],
    ])
  })

  test('a BYOK call is tracked separately and is outside the limit unless include_byok_in_limit', () => {
    const outside = plan({ limit: 10, limit_reset: 'daily', include_byok_in_limit: false }, { isByok: true })
    assert.equal(outside.keyLimitScopeId, null)
    assert.ok(outside.scopes.every((scope) => scope.limitNano === null))
    assert.deepEqual(outside.scopes.map((scope) => scope.id).sort(), [
      'key:h:byok:d:2026-11-22',
      'key:h:byok:lifetime',
      'key:h:byok:m:2026-11',
      'key:h:byok:w:2026-11-16',
      'key:h:total:d:2026-11-22',
      'key:h:total:lifetime',
      'key:h:total:m:2026-11',
      'key:h:total:w:2026-11-16',
    ])
    const inside = plan({ limit: 10, limit_reset: 'daily', include_byok_in_limit: true }, { isByok: true })
    assert.equal(inside.keyLimitScopeId, 'key:h:total:d:2026-11-22')
    assert.deepEqual(summary(inside.scopes)[0], ['key:h:total:d:2026-11-22', 10_000_000_000n, 12 * 3600 + DAY])
  })

  test("include_byok_in_limit puts a non-BYOK call's limit on the combined counter", () => {
    assert.equal(
      plan({ limit: 1, limit_reset: 'weekly', include_byok_in_limit: true }).keyLimitScopeId,
      'key:h:total:w:2026-11-16',
    )
  })

  test('no limit: nothing limits the call, every counter is still tracked', () => {
    const result = plan({ limit: null, limit_reset: 'daily', include_byok_in_limit: true })
    assert.equal(result.keyLimitScopeId, null)
    assert.equal(result.scopes.length, 8)
    assert.ok(result.scopes.every((scope) => scope.limitNano === null))
  })

  test('a limit without reset applies to lifetime spend, which never expires', () => {
    const result = plan({ limit: 0.5, limit_reset: null, include_byok_in_limit: false })
    assert.deepEqual(summary(result.scopes)[0], ['key:h:usage:lifetime', 500_000_000n, undefined])
  })

  test('order: key limit, budgets, credits, then tracking; BYOK calls skip credits', () => {
    const clock = new ManualClock(noon)
    const budget = windowedScope('guardrail:g', 'daily', 2_000n, clock)
    const credits = { scopeId: 'org:o:credits', totalCreditsNano: 5_000n }
    const key = { limit: 10, limit_reset: 'monthly', include_byok_in_limit: true } as const
    const paid = plan(key, { budgets: [budget], credits })
    assert.deepEqual(
      paid.scopes.slice(0, 3).map((scope) => [scope.id, scope.limitNano]),
      [
        ['key:h:total:m:2026-11', 10_000_000_000n],
        ['guardrail:g:d:2026-11-22', 2_000n],
        ['org:o:credits', 5_000n],
      ],
    )
    assert.equal(paid.scopes.length, 10)
    const byok = plan(key, { budgets: [budget], credits, isByok: true })
    assert.ok(!byok.scopes.some((scope) => scope.id === 'org:o:credits'))
    assert.ok(byok.scopes.some((scope) => scope.id === budget.id))
  })

  test('window ids roll over at midnight UTC, Monday and the 1st', () => {
    const key = { limit: 1, limit_reset: 'daily', include_byok_in_limit: false } as const
    const before = plan(key, { clock: new ManualClock('2026-11-30T23:59:59.999Z') })
    const after = plan(key, { clock: new ManualClock('2026-12-01T00:00:00.000Z') })
    assert.deepEqual(before.scopes.map((scope) => scope.id).slice(0, 4), [
      'key:h:usage:d:2026-11-30',
      'key:h:usage:lifetime',
      'key:h:usage:w:2026-11-30',
      'key:h:usage:m:2026-11',
    ])
    assert.deepEqual(after.scopes.map((scope) => scope.id).slice(0, 4), [
      'key:h:usage:d:2026-12-01',
      'key:h:usage:lifetime',
      'key:h:usage:w:2026-11-30',
      'key:h:usage:m:2026-12',
    ])
    assert.equal(before.scopes[0]?.ttlSeconds, 1 + DAY, 'a counter outlives its window by the margin')
  })

  test('ids follow the window and the key when calls go back and forth between them (ledger replays, many keys)', () => {
    const key = { limit: null, limit_reset: null, include_byok_in_limit: false } as const
    const at = (iso: string, keyHash: string) =>
      planReservation({ keyHash, key, isByok: false, clock: new ManualClock(iso) }).scopes.map((scope) => scope.id)
    const ids = [
      at('2026-11-30T23:59:59.999Z', 'a'),
      at('2026-12-01T00:00:00.000Z', 'a'),
      at('2026-11-30T12:00:00.000Z', 'a'),
      at('2026-12-01T00:00:00.000Z', 'b'),
      at('2026-12-01T00:00:00.000Z', 'a'),
    ]
    assert.deepEqual(
      ids.map((scopes) => scopes.filter((id) => id.includes(':usage:d:'))),
      [
        ['key:a:usage:d:2026-11-30'],
        ['key:a:usage:d:2026-12-01'],
        ['key:a:usage:d:2026-11-30'],
        ['key:b:usage:d:2026-12-01'],
        ['key:a:usage:d:2026-12-01'],
      ],
    )
    assert.deepEqual(ids[4], ids[1])
  })

  test('the ttl margin is configurable', () => {
    const result = plan({ limit: 1, limit_reset: 'daily', include_byok_in_limit: false }, { ttlMarginSeconds: 60 })
    assert.equal(result.scopes[0]?.ttlSeconds, 12 * 3600 + 60)
  })
})

describe('planReservation with counters', () => {
  test('a daily limit refuses on its own scope, untouched elsewhere, and admits again the next day', async () => {
    const clock = new ManualClock('2026-11-22T22:00:00.000Z')
    const counters = new MemorySpendCounters(clock)
    const key = { limit: 1, limit_reset: 'daily', include_byok_in_limit: false } as const
    const first = planReservation({ keyHash: 'h', key, isByok: false, clock })
    assert.equal(
      (await counters.reserve({ reservationId: 'g1', scopes: first.scopes, amountNano: 600_000_000n })).kind,
      'admitted',
    )
    await counters.settle('g1', 600_000_000n)
    const refused = await counters.reserve({ reservationId: 'g2', scopes: first.scopes, amountNano: 600_000_000n })
    assert.equal(refused.kind === 'refused' && refused.scopeId, first.keyLimitScopeId)
    clock.set('2026-11-23T00:00:00.000Z')
    const next = planReservation({ keyHash: 'h', key, isByok: false, clock })
    assert.equal(
      (await counters.reserve({ reservationId: 'g3', scopes: next.scopes, amountNano: 600_000_000n })).kind,
      'admitted',
    )
  })

  test('turning include_byok_in_limit on mid-window counts the BYOK spend already made', async () => {
    const clock = new ManualClock(noon)
    const counters = new MemorySpendCounters(clock)
    const without = { limit: 1, limit_reset: 'monthly', include_byok_in_limit: false } as const
    const byokPlan = planReservation({ keyHash: 'h', key: without, isByok: true, clock })
    await counters.reserve({ reservationId: 'b1', scopes: byokPlan.scopes, amountNano: 2_000_000_000n })
    await counters.settle('b1', 2_000_000_000n)
    const paidWithout = planReservation({ keyHash: 'h', key: without, isByok: false, clock })
    assert.equal(
      (await counters.reserve({ reservationId: 'p1', scopes: paidWithout.scopes, amountNano: 500_000_000n })).kind,
      'admitted',
    )
    await counters.release('p1')
    const paidWith = planReservation({
      keyHash: 'h',
      key: { ...without, include_byok_in_limit: true },
      isByok: false,
      clock,
    })
    const refused = await counters.reserve({ reservationId: 'p2', scopes: paidWith.scopes, amountNano: 500_000_000n })
    assert.deepEqual(refused, {
      kind: 'refused',
      scopeId: 'key:h:total:m:2026-11',
      limitNano: 1_000_000_000n,
      spentNano: 2_000_000_000n,
      reservedNano: 0n,
    })
  })
})
