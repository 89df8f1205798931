// The core batch scenarios that run lines: a large chat batch with exact counts and one result per
// custom_id, and an embeddings batch billed line by line.
import assert from 'node:assert/strict'
import { embeddingVector } from '../fake-upstreams/scripted-reply.ts'
import { bearer } from '../support/test-gateway.ts'
import { chatLines, embeddingLines, embeddingModel, embeddingNanoPerToken, isTerminal, model } from './batch-fixture.ts'
import type { CoreSuiteOptions, DefineScenario } from './batch-core-suite.ts'
import { sharesCounters, startSuiteGateways } from './start-suite-gateways.ts'

/** A line's chat completion, with the members the large scenario reads. */
interface ChatReply {
  readonly choices: readonly { readonly message: { readonly content: string } }[]
}

/** A line's embeddings answer, with the members the embeddings scenario reads. */
interface EmbeddingsReply {
  readonly id: string
  readonly object: string
  readonly model: string
  readonly data: unknown
  readonly usage: { readonly prompt_tokens: number }
}

export function defineRunScenarios(suite: CoreSuiteOptions, define: DefineScenario): void {
  define(
    'large',
    `a ${suite.largeBatchSize}-request batch completes with exact counts and one result per custom_id`,
    false,
    async () => {
      const started = await startSuiteGateways(suite)
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
        const results = done.body.results!
        assert.equal(results.length, suite.largeBatchSize)
        assert.equal(new Set(results.map((result) => result.custom_id)).size, suite.largeBatchSize)
        assert.ok(
          results.every(
            (result) =>
              result.error === null &&
              result.response!.status_code === 200 &&
              (result.response!.body as ChatReply).choices[0]!.message.content.length > 0,
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

  define(
    'embeddings',
    'an embeddings batch completes with one vector per line, costs the sum of its lines and bills the key',
    false,
    async () => {
      const started = await startSuiteGateways(suite)
      const { primary } = started
      try {
        const lines = embeddingLines(5)
        const submitted = await primary.submit({ endpoint: '/v1/embeddings', model: embeddingModel, requests: lines })
        assert.equal(submitted.status, 202, JSON.stringify(submitted.body))
        const done = await primary.waitFor(submitted.body.id, isTerminal)
        assert.equal(done.body.status, 'completed', JSON.stringify(done.body.results))
        assert.deepEqual(done.body.request_counts, { total: 5, completed: 5, failed: 0 })
        const results = done.body.results!
        assert.deepEqual(results.map((result) => result.custom_id).sort(), lines.map((line) => line.custom_id).sort())
        for (const result of results) {
          const input = lines.find((line) => line.custom_id === result.custom_id)!.body.input
          assert.equal(result.error, null)
          const response = result.response!
          const reply = response.body as EmbeddingsReply
          assert.equal(response.status_code, 200)
          assert.equal(reply.object, 'list')
          assert.equal(reply.model, embeddingModel)
          assert.equal(reply.id, result.id)
          assert.deepEqual(reply.data, [{ object: 'embedding', index: 0, embedding: embeddingVector(input, 8) }])
          assert.equal(reply.usage.prompt_tokens, Math.ceil(input.length / 4))
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
        const db = primary.gateway.store.db
        const batch = await db
          .selectFrom('batches')
          .select(['cost_nano', 'key_hash'])
          .where('id', '=', submitted.body.id)
          .executeTakeFirstOrThrow()
        assert.equal(BigInt(batch.cost_nano), expectedNano, 'the batch costs the sum of its lines')
        const ids = results.map((result) => result.id)
        await primary.gateway.drained()
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
        if (sharesCounters(suite)) {
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
        assert.equal(failed.body.results![0]!.error!.error_type, 'invalid_request')
        assert.match(failed.body.results![0]!.error!.message, /is a text model and cannot serve this route/)
      } finally {
        await started.close()
      }
    },
  )
}
