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
