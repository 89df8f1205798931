// A live worker keeps the leases of the lines it runs: a line slower than `batches.lease_ms` is not
// claimed again (and sent upstream again) by its own worker or another gateway's while it runs, and
// once its worker stops renewing (it died), the lease lapses and another worker runs the line again.
// Driven pass by pass with an injected clock, so no timing decides it. On SQLite, and on PostgreSQL
// when TEST_DATABASE_URL is set (the claim and the renewal are conditional UPDATEs on either engine).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import pino from 'pino'
import { BatchWorker, type BatchWorkerDeps } from '../../src/batches/batch-worker.ts'
import type { BatchItemRunner } from '../../src/batches/run-batch-item.ts'
import { createBatchesRepository } from '../../src/store/repositories/batches-repository.ts'
import { postgresTarget } from '../support/test-services.ts'
import { chatLines, model, movableClock, startBatchFixture } from './batch-fixture.ts'

const leaseMs = 60_000
const postgres = postgresTarget()

for (const [engine, postgresUrl, skip] of [
  ['sqlite', undefined, false],
  ['postgres', postgres.url, postgres.skip],
] as const) {
  test(
    `a line slower than its lease is not claimed again while its worker lives, and is after the worker dies (${engine})`,
    { skip },
    () => leaseScenario(postgresUrl),
  )
}

async function leaseScenario(postgresUrl: string | undefined): Promise<void> {
  const fixture = await startBatchFixture({ postgresUrl })
  try {
    await fixture.worker.stop()
    const submitted = await fixture.submit({ endpoint: '/v1/chat/completions', model, requests: chatLines(2) })
    assert.equal(submitted.status, 202)

    const clock = movableClock()
    const runs: string[] = []
    let release = (): void => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    const runItem: BatchItemRunner = async (_batch, item) => {
      runs.push(`${item.custom_id}#${item.attempts}`)
      await held
      return { result: { response: { status_code: 200, body: {} }, error: null }, costNano: 0n }
    }
    const { db, engine } = fixture.gateway.store
    const deps: BatchWorkerDeps = {
      batches: createBatchesRepository(db, engine),
      clock,
      logger: pino({ level: 'silent' }),
      runItem,
      recordsDurable: async () => undefined,
      options: { pollIntervalMs: 3_600_000, concurrency: 4, perBatchConcurrency: 4, leaseMs },
    }
    const running = new BatchWorker(deps)
    const other = new BatchWorker(deps)

    await running.runPass()
    assert.deepEqual(runs.sort(), ['line-0#1', 'line-1#1'], 'both lines claimed and running')
    for (let step = 0; step < 6; step++) {
      clock.advance(leaseMs / 2)
      await running.runPass()
      await other.runPass()
    }
    // Three leases have passed since the claim: without renewal both workers would have claimed the lines again.
    assert.deepEqual(runs.sort(), ['line-0#1', 'line-1#1'], 'no line is claimed again while its worker renews it')
    assert.equal(running.retriedLines + other.retriedLines, 0)

    // The first worker stops renewing (as a killed process does): the leases lapse, the other runs the lines.
    clock.advance(leaseMs + 1)
    await other.runPass()
    assert.deepEqual(runs.sort(), ['line-0#1', 'line-0#2', 'line-1#1', 'line-1#2'])
    assert.equal(other.retriedLines, 2)
    release()
    await Promise.all([running.stop(), other.stop()])
    const done = await db
      .selectFrom('batch_items')
      .select(['custom_id', 'status'])
      .where('batch_id', '=', submitted.body.id)
      .execute()
    assert.deepEqual(
      done.map((row) => `${row.custom_id}:${row.status}`).sort(),
      ['line-0:done', 'line-1:done'],
      'each line is stored once, by the worker holding its lease',
    )
  } finally {
    await fixture.close()
  }
}
