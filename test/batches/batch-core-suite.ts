// The core batch scenarios, run on SQLite with one worker and on PostgreSQL with two workers sharing one
// store: exact counts for a large batch, an embeddings batch billed line by line, cancel, the 402 -> grant
// -> 200 cycle, 30-day 410, list filters.
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { embeddingVector } from '../fake-upstreams/scripted-reply.ts'
import { bearer } from '../support/test-gateway.ts'
import {
  chatLines,
  embeddingLines,
  embeddingModel,
  embeddingNanoPerToken,
  isTerminal,
  model,
  movableClock,
  startBatchFixture,
  type BatchFixture,
  type BatchFixtureOptions,
} from './batch-fixture.ts'

export interface CoreSuiteOptions {
  readonly label: string
  readonly postgresUrl?: string | undefined
  /** Redis for spend counters shared by the two gateways (credits are only global with shared counters). */
  readonly redisUrl?: string | undefined
  readonly skip: string | false
  readonly twoWorkers: boolean
  readonly largeBatchSize: number
  /** The scenarios to define (all when absent), so a slow engine can spread them over files. */
  readonly scenarios?: readonly Scenario[]
}

export type Scenario = 'large' | 'embeddings' | 'cancel' | 'credits' | 'retention' | 'list'

interface Started {
  readonly primary: BatchFixture
  stopWorkers(): Promise<void>
  startWorkers(): void
  close(): Promise<void>
}

async function start(suite: CoreSuiteOptions, given: BatchFixtureOptions = {}): Promise<Started> {
  const redis =
    suite.redisUrl === undefined ? undefined : { url: suite.redisUrl, keyPrefix: `batches-${randomUUID()}:` }
  const options = redis === undefined ? given : { ...given, redis }
  const primary = await startBatchFixture({ ...options, postgresUrl: suite.postgresUrl })
  const fixtures = [primary]
  if (suite.twoWorkers)
    fixtures.push(
      await startBatchFixture({
        ...options,
        upstream: primary.upstream,
        key: primary.key,
        databaseUrl: primary.gateway.database.url,
      }),
    )
  const workers = fixtures.map((fixture) => fixture.gateway.gateway.batchWorker)
  const controls = {
    stopWorkers: async () => {
      await Promise.all(workers.map((worker) => worker.stop()))
    },
    startWorkers: () => workers.forEach((worker) => worker.start()),
  }
  const secondary = fixtures[1]
  if (secondary === undefined) return { primary, ...controls, close: () => primary.close() }
  return {
    primary,
    ...controls,
    close: async () => {
      await secondary.close({ keepStore: true })
      await primary.close()
    },
  }
}

export function defineBatchCoreSuite(suite: CoreSuiteOptions): void {
  const { label } = suite
  const define = (scenario: Scenario, name: string, skip: string | false, body: () => Promise<void>): void => {
    if (suite.scenarios === undefined || suite.scenarios.includes(scenario))
      test(`${label}: ${name}`, { skip: suite.skip !== false ? suite.skip : skip }, body)
  }

  define(
    'large',
    `a ${suite.largeBatchSize}-request batch completes with exact counts and one result per custom_id`,
    false,
    async () => {
      const started = await start(suite)
      const { primary } = started
      try {
        const submitted = await primary.submit({
          endpoint: '/v1/chat/completions',
          model,
          completion_window: '24h',
          requests: chatLines(suite.largeBatchSize),
        })
        assert.equal(submitted.status, 202, JSON.stringify(submitted.body))
        assert.equal(submitted.body.status, 'validating')
        assert.match(submitted.body.id, /^batch_/)
        const done = await primary.waitFor(submitted.body.id, isTerminal)
        assert.equal(done.status, 200)
        assert.equal(done.body.status, 'completed')
        assert.deepEqual(done.body.request_counts, {
          total: suite.largeBatchSize,
          completed: suite.largeBatchSize,
          failed: 0,
        })
        assert.equal(typeof done.body.finalized_at, 'number')
        const results = done.body.results as {
          custom_id: string
          id: string
          error: unknown
          response: { status_code: number; body: any }
        }[]
        assert.equal(results.length, suite.largeBatchSize)
        assert.equal(new Set(results.map((result) => result.custom_id)).size, suite.largeBatchSize)
        assert.ok(
          results.every(
            (result) =>
              result.error === null &&
              result.response.status_code === 200 &&
              result.response.body.choices[0].message.content.length > 0,
          ),
        )
        assert.equal(
          primary.upstream.requests.length,
          suite.largeBatchSize,
          'each line reaches the upstream exactly once',
        )
        const generationId = results[0]!.id
        const deadline = Date.now() + 30_000
        for (;;) {
          const generation = await primary.request('GET', `/api/v1/generation?id=${generationId}`)
          if (generation.status === 200) break
          assert.ok(
            Date.now() < deadline,
            `the line's generation record is readable: ${JSON.stringify(generation.body)}`,
          )
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      } finally {
        await started.close()
      }
    },
  )

  const sharesCounters = !suite.twoWorkers || suite.redisUrl !== undefined
  define(
    'embeddings',
    'an embeddings batch completes with one vector per line, costs the sum of its lines and bills the key',
    false,
    async () => {
      const started = await start(suite)
      const { primary } = started
      try {
        const lines = embeddingLines(5)
        const submitted = await primary.submit({ endpoint: '/v1/embeddings', model: embeddingModel, requests: lines })
        assert.equal(submitted.status, 202, JSON.stringify(submitted.body))
        const done = await primary.waitFor(submitted.body.id, isTerminal)
        assert.equal(done.body.status, 'completed', JSON.stringify(done.body.results))
        assert.deepEqual(done.body.request_counts, { total: 5, completed: 5, failed: 0 })
        const results = done.body.results as {
          custom_id: string
          id: string
          error: unknown
          response: { status_code: number; body: any }
        }[]
        assert.deepEqual(results.map((result) => result.custom_id).sort(), lines.map((line) => line.custom_id).sort())
        for (const result of results) {
          const input = lines.find((line) => line.custom_id === result.custom_id)!.body.input
          assert.equal(result.error, null)
          assert.equal(result.response.status_code, 200)
          assert.equal(result.response.body.object, 'list')
          assert.equal(result.response.body.model, embeddingModel)
          assert.equal(result.response.body.id, result.id)
          assert.deepEqual(result.response.body.data, [
            { object: 'embedding', index: 0, embedding: embeddingVector(input, 8) },
          ])
          assert.equal(result.response.body.usage.prompt_tokens, Math.ceil(input.length / 4))
        }
        const sent = primary.upstream.requests.filter((request) => request.path === '/v1/embeddings')
        assert.deepEqual(
          sent.map((request) => (request.body as { input: string }).input).sort(),
          lines.map((line) => line.body.input).sort(),
          'each line reaches the upstream once',
        )

        const expectedNano = lines.reduce(
          (sum, line) => sum + BigInt(Math.ceil(line.body.input.length / 4)) * embeddingNanoPerToken,
          0n,
        )
        const db = primary.gateway.gateway.store.db
        const batch = await db
          .selectFrom('batches')
          .select(['cost_nano', 'key_hash'])
          .where('id', '=', submitted.body.id)
          .executeTakeFirstOrThrow()
        assert.equal(BigInt(batch.cost_nano), expectedNano, 'the batch costs the sum of its lines')
        const ids = results.map((result) => result.id)
        await primary.gateway.gateway.generations.flush()
        const deadline = Date.now() + 30_000
        let generations = await db
          .selectFrom('generations')
          .select(['cost_nano', 'api_type', 'key_hash'])
          .where('id', 'in', ids)
          .execute()
        while (generations.length < ids.length) {
          assert.ok(
            Date.now() < deadline,
            `every line's generation record is written: ${generations.length} of ${ids.length}`,
          )
          await new Promise((resolve) => setTimeout(resolve, 50))
          generations = await db
            .selectFrom('generations')
            .select(['cost_nano', 'api_type', 'key_hash'])
            .where('id', 'in', ids)
            .execute()
        }
        assert.ok(
          generations.every(
            (generation) => generation.api_type === 'embeddings' && generation.key_hash === batch.key_hash,
          ),
        )
        assert.equal(
          generations.reduce((sum, generation) => sum + BigInt(generation.cost_nano), 0n),
          expectedNano,
          'the generations cost what the batch does',
        )
        const ledger = await db
          .selectFrom('ledger_entries')
          .select(['generation_id', 'cost_nano', 'key_hash'])
          .where('generation_id', 'in', ids)
          .execute()
        assert.equal(ledger.length, ids.length, 'one ledger row per line')
        assert.ok(ledger.every((row) => row.key_hash === batch.key_hash))
        assert.equal(
          ledger.reduce((sum, row) => sum + BigInt(row.cost_nano), 0n),
          expectedNano,
        )
        if (sharesCounters) {
          const keyView = await primary.gateway.inject({
            method: 'GET',
            url: `/api/v1/keys/${batch.key_hash}`,
            headers: bearer(primary.gateway.adminKey),
          })
          assert.equal(
            Math.round((keyView.json() as { data: { usage: number } }).data.usage * 1e9),
            Number(expectedNano),
            'the key is billed the batch cost',
          )
        }

        const wrongKind = await primary.submit({ endpoint: '/v1/embeddings', model, requests: embeddingLines(1) })
        assert.equal(wrongKind.status, 202, 'the model is checked when the line runs, as for other endpoints')
        const failed = await primary.waitFor(wrongKind.body.id, isTerminal)
        assert.equal(failed.body.status, 'failed')
        assert.equal(failed.body.results[0].error.error_type, 'invalid_request')
        assert.match(failed.body.results[0].error.message, /is a text model and cannot serve this route/)
      } finally {
        await started.close()
      }
    },
  )

  define('cancel', 'cancel moves a batch to cancelling then cancelled with the unrun lines failed', false, async () => {
    const started = await start(suite)
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
      assert.equal(done.body.results[0].error.error_type, 'timeout')
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

  const creditsSkip = !sharesCounters
    ? 'several gateways share credit usage only through Redis counters (TEST_REDIS_URL)'
    : false
  define(
    'credits',
    'a finalized cost above the balance answers 402 until a grant, then the results',
    creditsSkip,
    async () => {
      const started = await start(suite, { enforceCredits: true })
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
        const owed = await primary.waitFor(submitted.body.id, isTerminal)
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
        assert.equal(paid.body.results.length, 2)
      } finally {
        await started.close()
      }
    },
  )

  define('retention', 'results are swept 30 days after creation and GET answers 410', false, async () => {
    const clock = movableClock()
    const started = await start(suite, { clock })
    const { primary } = started
    try {
      const submitted = await primary.submit({ endpoint: '/v1/chat/completions', model, requests: chatLines(3) })
      const done = await primary.waitFor(submitted.body.id, isTerminal)
      assert.equal(done.body.results.length, 3)
      clock.advance(30 * 24 * 60 * 60 * 1000 + 1000)
      primary.gateway.gateway.batchWorker.wake()
      const gone = await primary.waitFor(submitted.body.id, (answer) => answer.status === 410)
      assert.equal(gone.body.error.code, 410)
      const db = primary.gateway.gateway.store.db
      const deadline = Date.now() + 30_000
      while (
        (await db.selectFrom('batch_items').select('id').where('batch_id', '=', submitted.body.id).execute()).length > 0
      ) {
        assert.ok(Date.now() < deadline, 'the retention sweep deletes the results')
        primary.gateway.gateway.batchWorker.wake()
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    } finally {
      await started.close()
    }
  })

  define('list', 'list pages newest first with a cursor and filters by status and creation time', false, async () => {
    const clock = movableClock()
    const started = await start(suite, { clock })
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
      const createdAt = second.body.data[0].created_at as number
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
