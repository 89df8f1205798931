// BatchInsert on every engine: rows of any count arrive exactly once, in chunks compiled once, with
// NULLs for absent values and existing rows skipped when a conflict target is given. inSlices: slices
// of a flush with a turn of the event loop between them.
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import { BatchInsert, inSlices, rowsPerSlice } from '../../src/store/batch-insert.ts'
import { createLedgerRepository, type LedgerRow } from '../../src/store/repositories/ledger-repository.ts'
import { storeEngines, useMigratedStore } from '../support/test-store.ts'

function ledgerRow(generation: number, attempt: number, endUser: string | null = null): LedgerRow {
  return {
    id: `gen-${generation}:${attempt}`,
    generation_id: `gen-${generation}`,
    attempt,
    key_hash: 'k'.repeat(64),
    workspace_id: 'w',
    organization_id: 'o',
    model: 'm/x',
    provider: 'p',
    prompt_tokens: generation,
    completion_tokens: 2,
    reasoning_tokens: 0,
    cached_tokens: 0,
    cache_write_tokens: 0,
    cost_nano: `${generation}000`,
    is_byok: 0,
    end_user: endUser,
    created_at: '2026-11-22T00:00:00.000Z',
  }
}

for (const engine of storeEngines()) {
  describe(`batch insert on ${engine.name}`, { skip: engine.skip }, () => {
    const store = useMigratedStore(engine)

    test('every row of a batch of odd size arrives once with its values', async () => {
      const rows = Array.from({ length: 150 }, (_, index) =>
        ledgerRow(index, 1, index % 2 === 0 ? `user-${index}` : null),
      )
      await store().writes.commit(new BatchInsert<LedgerRow>(store().db, 'ledger_entries').statements(rows))
      const stored = await store().db.selectFrom('ledger_entries').selectAll().orderBy('prompt_tokens').execute()
      assert.equal(stored.length, 150)
      assert.deepEqual(
        stored.map((row) => ({ ...row, attempt: Number(row.attempt), prompt_tokens: Number(row.prompt_tokens) })),
        rows,
      )
    })

    test('rows that exist are skipped on the conflict target; the others are written', async () => {
      const ledger = createLedgerRepository(store().db, store().writes)
      await ledger.insertMany([ledgerRow(1000, 1), ledgerRow(1001, 1)])
      await ledger.insertMany([
        ledgerRow(1000, 1),
        ledgerRow(1001, 2),
        { ...ledgerRow(1001, 1), cost_nano: '999' },
        ledgerRow(1002, 1),
        ledgerRow(1003, 1),
      ])
      const stored = await store()
        .db.selectFrom('ledger_entries')
        .select(['id', 'cost_nano'])
        .where('generation_id', 'in', ['gen-1000', 'gen-1001', 'gen-1002', 'gen-1003'])
        .orderBy('id')
        .execute()
      assert.deepEqual(stored, [
        { id: 'gen-1000:1', cost_nano: '1000000' },
        { id: 'gen-1001:1', cost_nano: '1001000' },
        { id: 'gen-1001:2', cost_nano: '1001000' },
        { id: 'gen-1002:1', cost_nano: '1002000' },
        { id: 'gen-1003:1', cost_nano: '1003000' },
      ])
    })

    test('an absent column value is written as NULL', async () => {
      const { end_user: _omitted, ...withoutEndUser } = ledgerRow(2000, 1, 'someone')
      const rows = [ledgerRow(2001, 1, 'someone'), withoutEndUser as LedgerRow]
      await store().writes.commit(new BatchInsert<LedgerRow>(store().db, 'ledger_entries').statements(rows))
      const stored = await store()
        .db.selectFrom('ledger_entries')
        .select(['id', 'end_user'])
        .where('generation_id', 'in', ['gen-2000', 'gen-2001'])
        .orderBy('id')
        .execute()
      assert.deepEqual(stored, [
        { id: 'gen-2000:1', end_user: null },
        { id: 'gen-2001:1', end_user: 'someone' },
      ])
    })

    test('one inserter keeps a text per column list: rows with fewer or reordered columns land in their columns', async () => {
      const insert = new BatchInsert<LedgerRow>(store().db, 'ledger_entries')
      const { end_user: _omitted, ...withoutEndUser } = ledgerRow(3001, 1, 'dropped')
      const { id, cost_nano, ...rest } = ledgerRow(3002, 1, 'third')
      const reordered = { cost_nano, ...rest, id } as LedgerRow
      for (const rows of [
        [ledgerRow(3000, 1, 'first')],
        [withoutEndUser as LedgerRow],
        [reordered],
        [ledgerRow(3003, 1)],
      ])
        await store().writes.commit(insert.statements(rows))
      const stored = await store()
        .db.selectFrom('ledger_entries')
        .select(['id', 'end_user', 'cost_nano'])
        .where('generation_id', 'in', ['gen-3000', 'gen-3001', 'gen-3002', 'gen-3003'])
        .orderBy('id')
        .execute()
      assert.deepEqual(stored, [
        { id: 'gen-3000:1', end_user: 'first', cost_nano: '3000000' },
        { id: 'gen-3001:1', end_user: null, cost_nano: '3001000' },
        { id: 'gen-3002:1', end_user: 'third', cost_nano: '3002000' },
        { id: 'gen-3003:1', end_user: null, cost_nano: '3003000' },
      ])
    })
  })
}

test('inSlices writes slices of rowsPerSlice in order, with a turn of the event loop between them', async () => {
  const rows = Array.from({ length: rowsPerSlice * 2 + 5 }, (_, index) => index)
  const events: string[] = []
  await inSlices(rows, async (slice) => {
    events.push(`slice ${slice[0]}-${slice.at(-1)}`)
    setImmediate(() => events.push('turn'))
  })
  const last = rows.length - 1
  assert.deepEqual(events, [
    `slice 0-${rowsPerSlice - 1}`,
    'turn',
    `slice ${rowsPerSlice}-${rowsPerSlice * 2 - 1}`,
    'turn',
    `slice ${rowsPerSlice * 2}-${last}`,
  ])
})

test('inSlices stops at the first slice that fails', async () => {
  const rows = Array.from({ length: rowsPerSlice * 3 }, (_, index) => index)
  const written: number[] = []
  await assert.rejects(
    inSlices(rows, async (slice) => {
      if (slice[0] === rowsPerSlice) throw new Error('store unavailable')
      written.push(...slice)
    }),
    /store unavailable/,
  )
  assert.deepEqual(written, rows.slice(0, rowsPerSlice))
})
