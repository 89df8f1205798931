import { test } from 'node:test'
import assert from 'node:assert/strict'
import { commitRows, type RowsPlan } from './commit-rows.ts'
import { RejectedRows, type RowRejection } from './rejected-rows.ts'
import type { WriteBehind, WriteStatement } from './write-behind.ts'

/** A writer that commits a batch unless it holds a bad row, then fails the whole batch with `error`. */
function fakeWriter(isBad: (row: number) => boolean, error: () => Error) {
  const committed: number[] = []
  let commits = 0
  const writes: WriteBehind = {
    rejectedRows: new RejectedRows(),
    async commit(statements: readonly WriteStatement[]) {
      commits++
      const rows = statements.flatMap((statement) => statement.parameters as number[])
      if (rows.some(isBad)) throw error()
      committed.push(...rows)
    },
    async close() {},
  }
  return { writes, committed, commits: () => commits }
}

const plan: RowsPlan<number> = {
  table: 'numbers',
  statementsOf: (rows) => [{ sql: 'insert', parameters: rows }],
  describe: (row) => ({ id: row }),
}

const dataError = () =>
  Object.assign(new Error('null value in column "model" violates not-null constraint'), { code: '23502' })

test('a batch with bad rows commits every other row and sets each bad row aside once, with its reason', async () => {
  const { writes, committed } = fakeWriter((row) => row === 7 || row === 30, dataError)
  const rejections: RowRejection[] = []
  writes.rejectedRows.onRejected((rejection) => rejections.push(rejection))
  const rows = Array.from({ length: 32 }, (_, index) => index)
  await commitRows(writes, rows, plan)
  assert.deepEqual(
    committed.sort((a, b) => a - b),
    rows.filter((row) => row !== 7 && row !== 30),
  )
  assert.deepEqual(
    rejections.map(({ table, row, reason }) => ({ table, row, reason })),
    [
      { table: 'numbers', row: { id: 7 }, reason: 'null value in column "model" violates not-null constraint' },
      { table: 'numbers', row: { id: 30 }, reason: 'null value in column "model" violates not-null constraint' },
    ],
  )
  assert.deepEqual([...writes.rejectedRows.counts()], [['numbers', 2]])
})

test('SQLite constraint codes, and codes found through a cause, count as a row problem too', async () => {
  const sqlite = fakeWriter(
    (row) => row === 1,
    () => Object.assign(new Error('NOT NULL'), { code: 'SQLITE_CONSTRAINT_NOTNULL' }),
  )
  await commitRows(sqlite.writes, [0, 1, 2], plan)
  assert.deepEqual(sqlite.committed.sort(), [0, 2])
  const wrapped = fakeWriter(
    (row) => row === 2,
    () => new Error('insert failed', { cause: dataError() }),
  )
  await commitRows(wrapped.writes, [0, 1, 2], plan)
  assert.deepEqual(wrapped.committed.sort(), [0, 1])
})

test('a failure that is not about a row rejects at once: nothing is split, set aside or counted', async () => {
  const lost = () => Object.assign(new Error('connect ECONNRESET'), { code: 'ECONNRESET' })
  const { writes, committed, commits } = fakeWriter(() => true, lost)
  await assert.rejects(commitRows(writes, [1, 2, 3, 4], plan), /ECONNRESET/)
  assert.equal(commits(), 1)
  assert.deepEqual(committed, [])
  assert.equal(writes.rejectedRows.counts().size, 0)
})
