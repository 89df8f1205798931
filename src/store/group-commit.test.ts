import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { RowsPlan } from './commit-rows.ts'
import { GroupCommit } from './group-commit.ts'
import { RejectedRows } from './rejected-rows.ts'
import type { WriteBehind, WriteStatement } from './write-behind.ts'

/** A writer whose commits finish only when the test says so, recording what each one carried. */
function gatedWriter() {
  const transactions: string[][] = []
  const open: { resolve(): void; reject(error: Error): void }[] = []
  const writes: WriteBehind = {
    rejectedRows: new RejectedRows(),
    commit(statements: readonly WriteStatement[]) {
      transactions.push(statements.flatMap((statement) => statement.parameters as string[]))
      return new Promise<void>((resolve, reject) => open.push({ resolve, reject }))
    },
    async close() {},
  }
  /** Waits until `count` commits were asked for (they start on a later turn of the event loop). */
  const started = async (count: number): Promise<void> => {
    while (transactions.length < count) await new Promise((resolve) => setImmediate(resolve))
  }
  return { writes, transactions, open, started }
}

const plan = (table: string): RowsPlan<string> => ({
  table,
  statementsOf: (rows) => [{ sql: `insert into ${table}`, parameters: rows }],
  describe: (row) => ({ id: row }),
})

function settledState(promise: Promise<void>): { isSettled: boolean; error: unknown } {
  const state = { isSettled: false, error: undefined as unknown }
  promise.then(
    () => (state.isSettled = true),
    (error: unknown) => {
      state.isSettled = true
      state.error = error
    },
  )
  return state
}

test('everything settled in one window goes in one transaction, the next window waits for it, and each caller waits for at most the commit in flight and its own', async () => {
  const { writes, transactions, open, started } = gatedWriter()
  const commits = new GroupCommit(writes, { onError: (error) => assert.fail(String(error)), rowsPerCommit: 1000 })
  const ledger = commits.queue(plan('ledger'))
  const records = commits.queue(plan('records'))

  const first = Array.from({ length: 50 }, (_, index) => {
    ledger.add(`l${index}`, `l${index}`)
    records.add(`r${index}`, `r${index}`)
    return settledState(commits.durable())
  })
  await started(1)
  assert.equal(transactions.length, 1, 'one transaction for the 50 calls settled in the same window')
  assert.equal(transactions[0]!.length, 100, 'with both tables in it')

  ledger.add('late', 'late')
  records.add('late', 'late')
  const late = settledState(commits.durable())
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(transactions.length, 1, 'no second transaction while the first is in flight')
  assert.ok(first.every((state) => !state.isSettled) && !late.isSettled, 'nobody is answered before the commit')

  open[0]!.resolve()
  await started(2)
  assert.ok(
    first.every((state) => state.isSettled && state.error === undefined),
    'the first window is durable',
  )
  assert.equal(late.isSettled, false, 'a row settled during a commit waits for the next one')
  assert.deepEqual(transactions[1], ['late', 'late'])
  open[1]!.resolve()
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(late.isSettled, true)
  assert.equal(commits.pendingCount, 0)
  assert.equal(transactions.length, 2)
})

test('a commit that fails rejects its callers and keeps the rows for the next one; a row queued again is written once', async () => {
  const { writes, transactions, open, started } = gatedWriter()
  const errors: unknown[] = []
  const commits = new GroupCommit(writes, { onError: (error) => errors.push(error) })
  const ledger = commits.queue(plan('ledger'))
  ledger.add('a', 'a-1')
  ledger.add('a', 'a-2')
  const failed = settledState(commits.durable())
  await started(1)
  open[0]!.reject(new Error('connection lost'))
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal((failed.error as Error).message, 'connection lost')
  assert.equal(errors.length, 1)
  assert.equal(ledger.get('a'), 'a-2', 'still queued, readable')

  const retried = settledState(commits.durable())
  await started(2)
  assert.deepEqual(transactions[1], ['a-2'])
  open[1]!.resolve()
  await new Promise((resolve) => setImmediate(resolve))
  assert.ok(retried.isSettled && retried.error === undefined)
  assert.equal(commits.pendingCount, 0)
})

test('a caller with nothing queued does not wait, and a full queue is committed without a caller', async () => {
  const { writes, transactions, open, started } = gatedWriter()
  const commits = new GroupCommit(writes, { onError: (error) => assert.fail(String(error)), rowsPerCommit: 4 })
  await commits.durable()
  assert.equal(transactions.length, 0)
  const ledger = commits.queue(plan('ledger'))
  for (const row of ['a', 'b', 'c', 'd', 'e']) ledger.add(row, row)
  await started(1)
  assert.deepEqual(transactions[0], ['a', 'b', 'c', 'd'], 'the oldest rows first, at most rowsPerCommit')
  open[0]!.resolve()
  const rest = commits.flush()
  await started(2)
  open[1]!.resolve()
  await rest
  assert.deepEqual(transactions[1], ['e'])
})
