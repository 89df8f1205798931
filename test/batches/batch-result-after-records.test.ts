// A batch line's result becomes visible only with its ledger row and generation record: while a batch
// runs, every line the store shows as done already has both rows (read after the results, so a row
// committed before its result is always found). Run with `durability.write_behind: true`, where chat
// answers do not wait for their records: batch lines still do. Before, the generation record was
// written up to 250 ms behind the result, and a kill -9 in between left result ids answering 404.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { batchGenerationId } from '../../src/batches/batch-view.ts'
import { postgresTarget } from '../support/test-services.ts'
import { chatLines, isTerminal, model, startBatchFixture } from './batch-fixture.ts'

const postgres = postgresTarget()
const lines = 60

for (const [engine, postgresUrl, skip] of [
  ['sqlite', undefined, false],
  ['postgres', postgres.url, postgres.skip],
] as const) {
  test(
    `a line's result is never visible before its ledger row and generation record (${engine})`,
    { skip },
    async () => {
      const fixture = await startBatchFixture({ writeBehind: true, perBatchConcurrency: 8, postgresUrl })
      try {
        const submitted = await fixture.submit({ endpoint: '/v1/chat/completions', model, requests: chatLines(lines) })
        assert.equal(submitted.status, 202)
        const batchId = submitted.body.id
        const { db } = fixture.gateway.store
        let observations = 0
        let seenDone = 0
        for (let finished = false; !finished;) {
          // SQLite answers the test's reads synchronously: yield so the worker and its commits run.
          await sleep(2)
          finished = isTerminal(await fixture.request('GET', `/api/v1/batches/${batchId}`))
          const done = await db
            .selectFrom('batch_items')
            .select('position')
            .where('batch_id', '=', batchId)
            .where('status', '=', 'done')
            .execute()
          if (done.length === 0) continue
          const ids = done.map((row) => batchGenerationId(batchId, row.position))
          const records = await db.selectFrom('generations').select('id').where('id', 'in', ids).execute()
          const ledger = await db
            .selectFrom('ledger_entries')
            .select('generation_id')
            .where('generation_id', 'in', ids)
            .execute()
          const recorded = new Set(records.map((row) => row.id))
          const billed = new Set(ledger.map((row) => row.generation_id))
          assert.deepEqual(
            ids.filter((id) => !recorded.has(id) || !billed.has(id)),
            [],
            `lines visible as done without their records, at observation ${observations}`,
          )
          observations++
          seenDone = done.length
        }
        assert.equal(seenDone, lines, `every line was observed done (${observations} observations)`)
      } finally {
        await fixture.close()
      }
    },
  )
}
