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
        const grant = async (amount: number) => {
          const granted = await primary.gateway.inject({
            method: 'POST',
            url: '/api/v1/credits/grants',
            headers: admin,
            payload: { amount },
          })
          assert.equal(granted.statusCode, 201, granted.body)
        }
        // Admission needs a positive balance: with no credits at all, nothing is stored.
        const refused = await primary.submit({ endpoint: '/v1/chat/completions', model, requests: chatLines(1) })
        assert.equal(refused.status, 402, JSON.stringify(refused.body))
        assert.match(refused.body.error.message, /positive balance/)
        await grant(0.001)
        // Each line costs 10 x $0.000001 + 500 x $0.000002 > $0.001: the batch costs three times the balance.
        const reply = { type: 'completion', text: 'long', usage: { input_tokens: 10, output_tokens: 500 } } as const
        primary.upstream.script(reply, reply, reply)
        const lines = chatLines(3).map((line) => ({ ...line, body: { ...(line.body as object), max_tokens: 500 } }))
        const submitted = await primary.submit({ endpoint: '/v1/chat/completions', model, requests: lines })
        assert.equal(submitted.status, 202, JSON.stringify(submitted.body))
        // An admitted batch runs every line; its finalized cost then exceeds the balance: 402, metadata only.
        const owed = await primary.waitFor(submitted.body.id, isTerminal)
        assert.equal(owed.status, 402, JSON.stringify(owed.body))
        assert.equal(owed.body.id, submitted.body.id)
        assert.equal(owed.body.status, 'completed')
        assert.deepEqual(owed.body.request_counts, { total: 3, completed: 3, failed: 0 })
        assert.equal(owed.body.results, null)
        assert.equal(primary.upstream.requests.length, 3)
        assert.equal((await primary.request('GET', `/api/v1/batches/${submitted.body.id}`)).status, 402)
        await grant(10)
        const paid = await primary.request('GET', `/api/v1/batches/${submitted.body.id}`)
        assert.equal(paid.status, 200)
        assert.deepEqual(
          paid.body.results!.map((line) => [line.custom_id, line.response?.status_code]),
          [
            ['line-0', 200],
            ['line-1', 200],
            ['line-2', 200],
          ],
        )
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
      primary.worker.wake()
      const gone = await primary.waitFor(submitted.body.id, (answer) => answer.status === 410)
      assert.equal(gone.body.error.code, 410)
      const db = primary.gateway.store.db
      const deadline = Date.now() + 30_000
      while (
        (await db.selectFrom('batch_items').select('id').where('batch_id', '=', submitted.body.id).execute()).length > 0
      ) {
        assert.ok(Date.now() < deadline, 'the retention sweep deletes the results')
        primary.worker.wake()
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
