import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { ManualClock } from '../../test/support/manual-clock.ts'
import { MemorySpendCounters } from '../counters/memory-spend-counters.ts'
import type { SpendCounters } from '../counters/spend-counters.ts'
import { keyUsage, keyUsageScopeIds } from './key-usage.ts'
import { planReservation } from './reservation-plan.ts'
import type { KeyLimitSettings } from './reservation-plan.ts'

async function spend(
  counters: SpendCounters,
  clock: ManualClock,
  key: KeyLimitSettings,
  id: string,
  nano: bigint,
  isByok = false,
): Promise<void> {
  const { scopes } = planReservation({ keyHash: 'h', key, isByok, clock })
  const outcome = await counters.reserve({
    reservationId: id,
    scopes: scopes.map((scope) => ({ ...scope, limitNano: null })),
    amountNano: nano,
  })
  assert.equal(outcome.kind, 'admitted')
  await counters.settle(id, nano)
}

async function fields(counters: SpendCounters, clock: ManualClock, key: KeyLimitSettings) {
  return keyUsage('h', key, await counters.read(keyUsageScopeIds('h', clock)), clock)
}

const monthly = { limit: 10, limit_reset: 'monthly', include_byok_in_limit: false } as const

describe('keyUsage', () => {
  test('a key with no spend reports zero usage and its whole limit remaining', async () => {
    const clock = new ManualClock('2026-11-22T12:00:00.000Z')
    assert.deepEqual(await fields(new MemorySpendCounters(clock), clock, monthly), {
      usage: 0,
      usage_daily: 0,
      usage_weekly: 0,
      usage_monthly: 0,
      byok_usage: 0,
      byok_usage_daily: 0,
      byok_usage_weekly: 0,
      byok_usage_monthly: 0,
      limit_remaining: 10,
    })
  })

  test('reports usage and BYOK usage per window as USD, and rolls windows over by the calendar', async () => {
    const clock = new ManualClock('2026-11-22T12:00:00.000Z') // Sunday
    const counters = new MemorySpendCounters(clock)
    await spend(counters, clock, monthly, 'a', 1_250_000_000n)
    await spend(counters, clock, monthly, 'b', 300_000_000n, true)
    clock.set('2026-11-23T08:00:00.000Z') // Monday: new day and week, same month
    await spend(counters, clock, monthly, 'c', 100_000_000n)
    assert.deepEqual(await fields(counters, clock, monthly), {
      usage: 1.35,
      usage_daily: 0.1,
      usage_weekly: 0.1,
      usage_monthly: 1.35,
      byok_usage: 0.3,
      byok_usage_daily: 0,
      byok_usage_weekly: 0,
      byok_usage_monthly: 0.3,
      limit_remaining: 8.65,
    })
    clock.set('2026-12-01T00:00:00.000Z')
    const december = await fields(counters, clock, monthly)
    assert.deepEqual(
      [december.usage, december.usage_monthly, december.byok_usage, december.limit_remaining],
      [1.35, 0, 0.3, 10],
    )
  })

  test('limit_remaining counts BYOK only with include_byok_in_limit, uses the limit window, and never goes below 0', async () => {
    const clock = new ManualClock('2026-11-22T12:00:00.000Z')
    const counters = new MemorySpendCounters(clock)
    await spend(counters, clock, monthly, 'a', 1_000_000_000n)
    await spend(counters, clock, monthly, 'b', 2_000_000_000n, true)
    assert.equal((await fields(counters, clock, monthly)).limit_remaining, 9)
    assert.equal((await fields(counters, clock, { ...monthly, include_byok_in_limit: true })).limit_remaining, 7)
    assert.equal(
      (await fields(counters, clock, { ...monthly, limit: 2.5, include_byok_in_limit: true })).limit_remaining,
      0,
    )
    clock.set('2026-11-23T00:00:00.000Z')
    assert.equal(
      (await fields(counters, clock, { ...monthly, limit_reset: 'daily' })).limit_remaining,
      10,
      'a new day restores a daily limit',
    )
    assert.equal(
      (await fields(counters, clock, { ...monthly, limit_reset: null })).limit_remaining,
      9,
      'no reset: lifetime spend counts',
    )
    assert.equal((await fields(counters, clock, { ...monthly, limit: null })).limit_remaining, null)
  })

  test('holds of calls in flight are not usage', async () => {
    const clock = new ManualClock('2026-11-22T12:00:00.000Z')
    const counters = new MemorySpendCounters(clock)
    const { scopes } = planReservation({ keyHash: 'h', key: monthly, isByok: false, clock })
    await counters.reserve({ reservationId: 'a', scopes, amountNano: 4_000_000_000n })
    const reported = await fields(counters, clock, monthly)
    assert.deepEqual([reported.usage, reported.limit_remaining], [0, 10])
  })

  test('keyUsageScopeIds names the twelve counters of the key at the present instant', () => {
    const ids = keyUsageScopeIds('h', new ManualClock('2028-02-29T23:59:59.999Z'))
    assert.equal(ids.length, 12)
    assert.ok(ids.includes('key:h:usage:d:2028-02-29'))
    assert.ok(ids.includes('key:h:byok:w:2028-02-28'))
    assert.ok(ids.includes('key:h:total:m:2028-02'))
    assert.ok(ids.includes('key:h:usage:lifetime'))
  })
})
