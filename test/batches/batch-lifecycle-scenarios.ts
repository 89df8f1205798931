// The core batch scenarios of a batch's life: cancel, the 402 -> grant -> 200 cycle, the 30-day 410,
// and list filters.
import assert from 'node:assert/strict'
import { bearer } from '../support/test-gateway.ts'
import { chatLines, isTerminal, model, movableClock } from './batch-fixture.ts'
import type { CoreSuiteOptions, DefineScenario } from './batch-core-suite.ts'
import { sharesCounters, startSuiteGateways } from './start-suite-gateways.ts'

export function defineLifecycleScenarios(suite: CoreSuiteOptions, define: DefineScenario): void {
  define('cancel', 'cancel moves a batch to cancelling then cancelled with the unrun lines failed', false, async () => {
    const started = await startSuiteGateways(suite)
    const { primary } = started
    try {
      await started.stopWorkers()
      const submitted = await primary.submit({ endpoint: '/v1/chat/completions', model, requests: chatLines(5) })
      const id = submitted.body.id as string
      const cancelling = await primary.request('POST', `/api/v1/batches/${id}/cancel`)
      assert.equal(cancelling.status, 200)
      assert.equal(cancelling.body.status, 'cancelling')
      const refusedDelete = await primary.request('DELETE', `/api/v1/batches/${id}`)
      assert.equal(refusedDelete.status, 409)
      assert.deepEqual(refusedDelete.body, {
        error: {
          code: 409,
          message:
            'Only completed, failed, expired, or cancelled batches can be deleted. Wait for the batch to finish and try again.',
        },
      })
      started.startWorkers()
      const done = await primary.waitFor(id, isTerminal)
      assert.equal(done.body.status, 'cancelled')
      assert.deepEqual(done.body.request_counts, { total: 5, completed: 0, failed: 5 })
      assert.equal(done.body.results![0]!.error!.error_type, 'timeout')
      assert.equal(primary.upstream.requests.length, 0)
      const again = await primary.request('POST', `/api/v1/batches/${id}/cancel`)
      assert.equal(again.status, 409)
      const deleted = await primary.request('DELETE', `/api/v1/batches/${id}`)
      assert.deepEqual(deleted, { status: 200, body: { id, object: 'batch', deletion: { openrouter: 'deleted' } } })
      assert.deepEqual((await primary.request('GET', `/api/v1/batches/${id}`)).body, {
        error: { code: 404, message: 'Batch not found.' },
      })
    } finally {
      await started.close()
    }
  })

  const creditsSkip = !sharesCounters(suite)
    ? 'several gateways share credit usage only through Redis counters (TEST_REDIS_URL)'
    : false
  define(
    'credits',
    'a finalized cost above the balance answers 402 until a grant, then the results',
    creditsSkip,
    async () => {
      const started = await startSuiteGateways(suite, { enforceCredits: true })
      const { primary } = started
      try {
        const admin = bearer(primary.gateway.adminKey)
        const granted = await primary.gateway.inject({
          method: 'POST',
          url: '/api/v1/credits/grants',
          headers: admin,
          payload: { amount: 0.001 },
        })
        assert.equal(granted.statusCode, 201, granted.body)
        primary.upstream.script(
          { type: 'completion', text: 'long', usage: { input_tokens: 10, output_tokens: 900 } },
          { type: 'completion', text: 'long', usage: { input_tokens: 10, output_tokens: 900 } },
        )
        const lines = chatLines(2).map((line) => ({ ...line, body: { ...(line.body as object), max_tokens: 1 } }))
        const submitted = await primary.submit({ endpoint: '/v1/chat/completions', model, requests: lines })
        assert.equal(submitted.status, 202, JSON.stringify(submitted.body))
        // Each line is billed at most its reservation, which the balance covered: no overdraft yet.
        const done = await primary.waitFor(submitted.body.id, isTerminal)
        assert.equal(done.status, 200, JSON.stringify(done.body))
        // Spend can pass the balance only through a hold whose lease lapsed before its line settled.
        const { foundation, accounting } = primary.gateway.internals
        await foundation.counters.record({
          id: 'lapsed-hold',
          scopes: [{ id: accounting.credits.scopeId }],
          amountNano: 1_000_000n,
        })
        const owed = await primary.request('GET', `/api/v1/batches/${submitted.body.id}`)
        assert.equal(owed.status, 402, JSON.stringify(owed.body))
        assert.equal(owed.body.id, submitted.body.id)
        assert.equal(owed.body.results, null)
        assert.ok(owed.body.request_counts.completed >= 1)
        const topUp = await primary.gateway.inject({
          method: 'POST',
          url: '/api/v1/credits/grants',
          headers: admin,
          payload: { amount: 10 },
        })
        assert.equal(topUp.statusCode, 201)
        const paid = await primary.request('GET', `/api/v1/batches/${submitted.body.id}`)
        assert.equal(paid.status, 200)
        assert.equal(paid.body.results!.length, 2)
      } finally {
        await started.close()
      }
    },
  )

  define('retention', 'results are swept 30 days after creation and GET answers 410', false, async () => {
    const clock = movableClock()
    const started = await startSuiteGateways(suite, { clock })
    const { primary } = started
    try {
      const submitted = await primary.submit({ endpoint: '/v1/chat/completions', model, requests: chatLines(3) })
      const done = await primary.waitFor(submitted.body.id, isTerminal)
      assert.equal(done.body.results!.length, 3)
      clock.advance(30 * 24 * 60 * 60 * 1000 + 1000)
      primary.gateway.internals.batchWorker.wake()
      const gone = await primary.waitFor(submitted.body.id, (answer) => answer.status === 410)
      assert.equal(gone.body.error.code, 410)
      const db = primary.gateway.store.db
      const deadline = Date.now() + 30_000
      while (
        (await db.selectFrom('batch_items').select('id').where('batch_id', '=', submitted.body.id).execute()).length > 0
      ) {
        assert.ok(Date.now() < deadline, 'the retention sweep deletes the results')
        primary.gateway.internals.batchWorker.wake()
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    } finally {
      await started.close()
    }
  })

  define('list', 'list pages newest first with a cursor and filters by status and creation time', false, async () => {
    const clock = movableClock()
    const started = await startSuiteGateways(suite, { clock })
    const { primary } = started
    try {
      const finished = await primary.submit({ endpoint: '/v1/chat/completions', model, requests: chatLines(1) })
      await primary.waitFor(finished.body.id, isTerminal)
      await started.stopWorkers()
      clock.advance(10_000)
      const ids: string[] = [finished.body.id]
      for (let index = 0; index < 3; index++) {
        clock.advance(1500)
        ids.push((await primary.submit({ endpoint: '/v1/chat/completions', model, requests: chatLines(1) })).body.id)
      }
      const first = await primary.request('GET', '/api/v1/batches?limit=2')
      assert.equal(first.status, 200)
      assert.equal(first.body.object, 'list')
      assert.deepEqual(
        first.body.data.map((batch: { id: string }) => batch.id),
        [ids[3], ids[2]],
      )
      assert.equal(first.body.has_more, true)
      assert.equal(first.body.first_id, ids[3])
      assert.ok(first.body.data.every((batch: { results: unknown }) => batch.results === null))
      const second = await primary.request('GET', `/api/v1/batches?limit=2&after=${first.body.last_id}`)
      assert.deepEqual(
        second.body.data.map((batch: { id: string }) => batch.id),
        [ids[1], ids[0]],
      )
      assert.equal(second.body.has_more, false)
      const completed = await primary.request('GET', '/api/v1/batches?status=completed&status=failed')
      assert.deepEqual(
        completed.body.data.map((batch: { id: string }) => batch.id),
        [ids[0]],
      )
      const validating = await primary.request('GET', '/api/beta/batches?status=validating')
      assert.equal(validating.body.data.length, 3)
      const createdAt = second.body.data[0]!.created_at
      const recent = await primary.request('GET', `/api/v1/batches?created_after=${createdAt + 1}`)
      assert.deepEqual(
        recent.body.data.map((batch: { id: string }) => batch.id),
        [ids[3], ids[2]],
      )
      const old = await primary.request(
        'GET',
        `/api/v1/batches?created_before=${new Date(createdAt * 1000).toISOString()}`,
      )
      assert.deepEqual(
        old.body.data.map((batch: { id: string }) => batch.id),
        [ids[0]],
      )
      assert.equal((await primary.request('GET', '/api/v1/batches?status=finalizing')).status, 400)
      assert.equal((await primary.request('GET', '/api/v1/batches?limit=101')).status, 400)
    } finally {
      await started.close()
    }
  })
}
