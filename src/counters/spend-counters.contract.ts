// The behaviour every SpendCounters engine must show; run by each engine's test file.

import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import type { ManualClock } from '../../test/support/manual-clock.ts'
import {
  fixtureLeaseMs as LEASE_MS,
  fixtureRetentionMs as RETENTION_MS,
  withCounters,
} from './spend-counters.fixture.ts'
import type { SpendCountersFactory } from './spend-counters.fixture.ts'
import { runSpendCountersProperties } from './spend-counters.properties.ts'
import type { LimitedScope, SpendCounters } from './spend-counters.ts'

export type { SpendCountersFactory } from './spend-counters.fixture.ts'

const limited = (id: string, limitNano: bigint | null): LimitedScope => ({ id, limitNano, ttlSeconds: 3600 })

async function balanceOf(counters: SpendCounters, id: string): Promise<{ spent: bigint; reserved: bigint }> {
  const balance = (await counters.read([id])).get(id)
  assert.ok(balance !== undefined, `read returned no balance for ${id}`)
  return { spent: balance.spentNano, reserved: balance.reservedNano }
}

export function runSpendCountersContract(
  name: string,
  factory: SpendCountersFactory,
  options: { skip?: string | false } = {},
): void {
  describe(`SpendCounters contract: ${name}`, { skip: options.skip ?? false }, () => {
    const run = (title: string, body: (counters: SpendCounters, clock: ManualClock) => Promise<void>): void => {
      test(title, () => withCounters(factory, body))
    }

    run('an unknown scope reads as zero', async (counters) => {
      assert.deepEqual(await balanceOf(counters, 'nothing'), { spent: 0n, reserved: 0n })
    })

    run('admits up to the limit exactly and refuses one nano-dollar more, naming the scope', async (counters) => {
      assert.deepEqual(await counters.reserve({ reservationId: 'a', scopes: [limited('k', 100n)], amountNano: 60n }), {
        kind: 'admitted',
      })
      assert.deepEqual(await counters.settle('a', 30n), { kind: 'settled', amountNano: 30n })
      assert.deepEqual(await counters.reserve({ reservationId: 'b', scopes: [limited('k', 100n)], amountNano: 50n }), {
        kind: 'admitted',
      })
      assert.deepEqual(await counters.reserve({ reservationId: 'c', scopes: [limited('k', 100n)], amountNano: 21n }), {
        kind: 'refused',
        scopeId: 'k',
        limitNano: 100n,
        spentNano: 30n,
        reservedNano: 50n,
      })
      assert.deepEqual(await counters.reserve({ reservationId: 'd', scopes: [limited('k', 100n)], amountNano: 20n }), {
        kind: 'admitted',
      })
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 30n, reserved: 70n })
    })

    run('a null limit admits anything and still tracks it', async (counters) => {
      const huge = 10n ** 15n
      assert.equal(
        (await counters.reserve({ reservationId: 'a', scopes: [limited('u', null)], amountNano: huge })).kind,
        'admitted',
      )
      assert.deepEqual(await balanceOf(counters, 'u'), { spent: 0n, reserved: huge })
      await counters.settle('a', 5n)
      assert.deepEqual(await balanceOf(counters, 'u'), { spent: 5n, reserved: 0n })
    })

    run('a zero limit refuses any cost but admits a free call', async (counters) => {
      assert.equal(
        (await counters.reserve({ reservationId: 'a', scopes: [limited('z', 0n)], amountNano: 1n })).kind,
        'refused',
      )
      assert.equal(
        (await counters.reserve({ reservationId: 'b', scopes: [limited('z', 0n)], amountNano: 0n })).kind,
        'admitted',
      )
    })

    run(
      'holds on every scope or on none: the tighter scope refuses and the others stay untouched',
      async (counters) => {
        const key = limited('key:h:limit:m:2026-11', 1_000n)
        const budget = limited('budget:b:d:2026-11-22', 100n)
        const usage = limited('key:h:usage:lifetime', null)
        assert.equal(
          (await counters.reserve({ reservationId: 'a', scopes: [key, budget, usage], amountNano: 80n })).kind,
          'admitted',
        )
        await counters.settle('a', 80n)
        const refused = await counters.reserve({ reservationId: 'b', scopes: [key, budget, usage], amountNano: 30n })
        assert.deepEqual(refused, {
          kind: 'refused',
          scopeId: budget.id,
          limitNano: 100n,
          spentNano: 80n,
          reservedNano: 0n,
        })
        for (const id of [key.id, budget.id, usage.id])
          assert.deepEqual(await balanceOf(counters, id), { spent: 80n, reserved: 0n }, id)
        assert.deepEqual(
          await counters.settle('b', 30n),
          { kind: 'unknown' },
          'a refused reservation holds nothing to settle',
        )
        assert.equal(
          (await counters.reserve({ reservationId: 'c', scopes: [key, budget, usage], amountNano: 20n })).kind,
          'admitted',
        )
        for (const id of [key.id, budget.id, usage.id])
          assert.deepEqual(await balanceOf(counters, id), { spent: 80n, reserved: 20n }, id)
      },
    )

    run('settle moves the hold to spent at the actual amount, even above the hold', async (counters) => {
      await counters.reserve({ reservationId: 'a', scopes: [limited('k', 100n), limited('b', null)], amountNano: 40n })
      assert.deepEqual(await counters.settle('a', 130n), { kind: 'settled', amountNano: 130n })
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 130n, reserved: 0n })
      assert.deepEqual(await balanceOf(counters, 'b'), { spent: 130n, reserved: 0n })
      assert.equal(
        (await counters.reserve({ reservationId: 'b', scopes: [limited('k', 100n)], amountNano: 0n })).kind,
        'refused',
      )
    })

    run('settle is idempotent: a repeat returns the first outcome and changes nothing', async (counters) => {
      await counters.reserve({ reservationId: 'a', scopes: [limited('k', 100n)], amountNano: 40n })
      await counters.settle('a', 25n)
      assert.deepEqual(await counters.settle('a', 99n), { kind: 'settled', amountNano: 25n })
      assert.deepEqual(await counters.release('a'), { kind: 'settled', amountNano: 25n })
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 25n, reserved: 0n })
    })

    run('release drops the hold once; a later settle or release is a no-op', async (counters) => {
      await counters.reserve({ reservationId: 'a', scopes: [limited('k', 100n)], amountNano: 40n })
      assert.deepEqual(await counters.release('a'), { kind: 'released' })
      assert.deepEqual(await counters.release('a'), { kind: 'released' })
      assert.deepEqual(await counters.settle('a', 40n), { kind: 'released' })
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 0n, reserved: 0n })
    })

    run('settle and release of an unknown reservation report unknown and change nothing', async (counters) => {
      assert.deepEqual(await counters.settle('nope', 5n), { kind: 'unknown' })
      assert.deepEqual(await counters.release('nope'), { kind: 'unknown' })
    })

    run('a repeated reservation id never takes a second hold', async (counters) => {
      await counters.reserve({ reservationId: 'a', scopes: [limited('k', 100n)], amountNano: 40n })
      assert.deepEqual(await counters.reserve({ reservationId: 'a', scopes: [limited('k', 100n)], amountNano: 40n }), {
        kind: 'duplicate',
        state: 'held',
      })
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 0n, reserved: 40n })
      await counters.settle('a', 10n)
      assert.deepEqual(await counters.reserve({ reservationId: 'a', scopes: [limited('k', 100n)], amountNano: 40n }), {
        kind: 'duplicate',
        state: 'settled',
      })
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 10n, reserved: 0n })
    })

    run('record adds spend once per id, ignoring limits', async (counters) => {
      const scopes = [{ id: 'k', ttlSeconds: 60 }, { id: 'usage' }]
      assert.deepEqual(await counters.record({ id: 'batch-1:item-1', scopes, amountNano: 70n }), { recorded: true })
      assert.deepEqual(await counters.record({ id: 'batch-1:item-1', scopes, amountNano: 70n }), { recorded: false })
      assert.deepEqual(await counters.record({ id: 'batch-1:item-2', scopes, amountNano: 50n }), { recorded: true })
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 120n, reserved: 0n })
      assert.deepEqual(await balanceOf(counters, 'usage'), { spent: 120n, reserved: 0n })
      assert.equal(
        (await counters.reserve({ reservationId: 'batch-1:item-1', scopes: [limited('k', 1_000n)], amountNano: 1n }))
          .kind,
        'admitted',
        'record ids do not collide with reservation ids',
      )
    })

    run('a hold whose lease lapses is dropped at the lease end, not a millisecond before', async (counters, clock) => {
      await counters.reserve({ reservationId: 'a', scopes: [limited('k', 100n)], amountNano: 60n })
      clock.advance(LEASE_MS - 1)
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 0n, reserved: 60n })
      assert.equal(
        (await counters.reserve({ reservationId: 'b', scopes: [limited('k', 100n)], amountNano: 60n })).kind,
        'refused',
      )
      clock.advance(1)
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 0n, reserved: 0n })
      assert.deepEqual(await counters.reserve({ reservationId: 'a', scopes: [limited('k', 100n)], amountNano: 1n }), {
        kind: 'duplicate',
        state: 'expired',
      })
      assert.equal(
        (await counters.reserve({ reservationId: 'b', scopes: [limited('k', 100n)], amountNano: 60n })).kind,
        'admitted',
      )
    })

    run(
      'a settle after the lease lapsed still records the spend; a release then changes nothing',
      async (counters, clock) => {
        await counters.reserve({ reservationId: 'late', scopes: [limited('k', 100n)], amountNano: 60n })
        await counters.reserve({ reservationId: 'gone', scopes: [limited('k', 100n)], amountNano: 30n })
        clock.advance(LEASE_MS)
        assert.deepEqual(await counters.settle('late', 45n), { kind: 'settled', amountNano: 45n })
        assert.deepEqual(await counters.release('gone'), { kind: 'released' })
        assert.deepEqual(await balanceOf(counters, 'k'), { spent: 45n, reserved: 0n })
        assert.deepEqual(await counters.settle('late', 45n), { kind: 'settled', amountNano: 45n })
        assert.deepEqual(await balanceOf(counters, 'k'), { spent: 45n, reserved: 0n })
      },
    )

    run('finished reservations are remembered for the retention period, then forgotten', async (counters, clock) => {
      await counters.reserve({ reservationId: 'a', scopes: [{ id: 'k', limitNano: null }], amountNano: 5n })
      await counters.settle('a', 5n)
      clock.advance(RETENTION_MS - 1)
      assert.deepEqual(await counters.settle('a', 7n), { kind: 'settled', amountNano: 5n })
      clock.advance(1)
      assert.deepEqual(await counters.settle('a', 7n), { kind: 'unknown' })
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 5n, reserved: 0n })
    })

    run('malformed requests are rejected before anything is held', async (counters) => {
      await assert.rejects(
        counters.reserve({ reservationId: 'a', scopes: [limited('k', 10n), limited('k', 10n)], amountNano: 1n }),
        RangeError,
      )
      await assert.rejects(
        counters.reserve({ reservationId: 'a', scopes: [limited('k', 10n)], amountNano: -1n }),
        RangeError,
      )
      await assert.rejects(
        counters.reserve({ reservationId: '', scopes: [limited('k', 10n)], amountNano: 1n }),
        RangeError,
      )
      await assert.rejects(
        counters.reserve({ reservationId: 'a', scopes: [{ id: 'k', limitNano: 10n, ttlSeconds: 0 }], amountNano: 1n }),
        RangeError,
      )
      await assert.rejects(counters.record({ id: 'r', scopes: [{ id: 'k' }], amountNano: -1n }), RangeError)
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 0n, reserved: 0n })
      await counters.reserve({ reservationId: 'a', scopes: [limited('k', 10n)], amountNano: 1n })
      await assert.rejects(counters.settle('a', -1n), RangeError)
      assert.deepEqual(await balanceOf(counters, 'k'), { spent: 0n, reserved: 1n })
    })

    run('counters of different windows are independent by id', async (counters) => {
      await counters.reserve({ reservationId: 'a', scopes: [limited('key:h:d:2026-11-22', 100n)], amountNano: 100n })
      await counters.settle('a', 100n)
      assert.equal(
        (await counters.reserve({ reservationId: 'b', scopes: [limited('key:h:d:2026-11-22', 100n)], amountNano: 1n }))
          .kind,
        'refused',
      )
      assert.equal(
        (
          await counters.reserve({
            reservationId: 'c',
            scopes: [limited('key:h:d:2026-11-23', 100n)],
            amountNano: 100n,
          })
        ).kind,
        'admitted',
      )
    })

    runSpendCountersProperties(factory)
  })
}
