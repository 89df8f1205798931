import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ManualClock } from '../../test/support/manual-clock.ts'
import { MemorySpendCounters } from './memory-spend-counters.ts'
import { runSpendCountersContract } from './spend-counters.contract.ts'

runSpendCountersContract('memory', async ({ clock, leaseMs, retentionMs }) => ({
  counters: new MemorySpendCounters(clock, { leaseMs, retentionMs }),
  close: async () => {},
}))

test('memory: a scope is gone once its ttl has passed since its last write', async () => {
  const clock = new ManualClock('2026-11-22T23:00:00.000Z')
  const counters = new MemorySpendCounters(clock)
  await counters.record({ id: 'r1', scopes: [{ id: 'key:h:usage:d:2026-11-22', ttlSeconds: 7200 }], amountNano: 5n })
  clock.advance(7_199_999)
  assert.equal((await counters.read(['key:h:usage:d:2026-11-22'])).get('key:h:usage:d:2026-11-22')?.spentNano, 5n)
  clock.advance(1)
  assert.equal((await counters.read(['key:h:usage:d:2026-11-22'])).get('key:h:usage:d:2026-11-22')?.spentNano, 0n)
})

test('memory: finished reservations are remembered for two minutes by default, a late settle of an expired one still counts', async () => {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z')
  const counters = new MemorySpendCounters(clock, { leaseMs: 1000 })
  const scopes = [{ id: 'k', limitNano: null }]
  await counters.reserve({ reservationId: 'a', scopes, amountNano: 5n })
  await counters.settle('a', 4n)
  await counters.reserve({ reservationId: 'late', scopes, amountNano: 5n })
  clock.advance(1000)
  assert.deepEqual(
    await counters.settle('late', 3n),
    { kind: 'settled', amountNano: 3n },
    'the lease lapsed, the spend still lands',
  )
  clock.advance(118_999)
  assert.deepEqual(await counters.settle('a', 9n), { kind: 'settled', amountNano: 4n })
  clock.advance(1)
  assert.deepEqual(await counters.settle('a', 9n), { kind: 'unknown' })
  assert.equal((await counters.read(['k'])).get('k')?.spentNano, 7n)
})

test('memory: a remembered outcome repeats exactly, past the safe-integer range and at zero; a released one reports released', async () => {
  const counters = new MemorySpendCounters(new ManualClock('2026-11-25T10:00:00.000Z'))
  const scopes = [{ id: 'k', limitNano: null }]
  const huge = 2n ** 70n + 1n
  for (const id of ['huge', 'zero', 'gone']) await counters.reserve({ reservationId: id, scopes, amountNano: 5n })
  await counters.settle('huge', huge)
  await counters.settle('zero', 0n)
  await counters.release('gone')
  assert.deepEqual(await counters.settle('huge', 1n), { kind: 'settled', amountNano: huge })
  assert.deepEqual(await counters.release('zero'), { kind: 'settled', amountNano: 0n })
  assert.deepEqual(await counters.reserve({ reservationId: 'gone', scopes, amountNano: 5n }), {
    kind: 'duplicate',
    state: 'released',
  })
  assert.deepEqual(await counters.reserve({ reservationId: 'huge', scopes, amountNano: 5n }), {
    kind: 'duplicate',
    state: 'settled',
  })
  assert.equal((await counters.read(['k'])).get('k')?.spentNano, huge)
})
