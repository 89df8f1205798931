// Shared set-up of the batch tests: a fake openai-chat upstream, a gateway (or two on one store) with a
// priced chat model and a priced embedding model and a fast worker, an inference key, a movable clock, and helpers to submit and poll.
import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import type { Clock } from '../../src/domain/clock.ts'
import type { BatchWorker } from '../../src/batches/batch-worker.ts'

export interface MovableClock extends Clock {
  advance(ms: number): void
}

export function movableClock(offsetMs = 0): MovableClock {
  let offset = offsetMs
  return { now: () => new Date(Date.now() + offset), advance: (ms) => (offset += ms) }
}

export interface BatchFixtureOptions {
  readonly postgresUrl?: string | undefined
  readonly databaseUrl?: string
  readonly clock?: Clock
  readonly enforceCredits?: boolean
  readonly perBatchConcurrency?: number
  readonly upstream?: FakeUpstream
  readonly key?: string
  /** `durability.write_behind: true`: answers leave before their records are committed (batch lines still wait). */
  readonly writeBehind?: boolean
  /** Shared spend counters for several gateways (REDIS_URL + one key prefix). */
  readonly redis?: { readonly url: string; readonly keyPrefix: string }
}

/** One line's outcome in a finished batch. */
export interface BatchResultLine {
  readonly custom_id: string
  readonly id: string
  readonly error: { readonly error_type: string; readonly message: string } | null
  readonly response: { readonly status_code: number; readonly body: unknown } | null
}

/** A batch object as the batch routes answer it. */
export interface BatchObject {
  readonly id: string
  readonly object: string
  readonly endpoint: string
  readonly status: string
  readonly created_at: number
  readonly finalized_at: number | null
  readonly request_counts: { readonly total: number; readonly completed: number; readonly failed: number }
  /** Null until the batch is finished (and in lists). */
  readonly results: readonly BatchResultLine[] | null
  readonly error: { readonly code: number | string; readonly message: string } | null
}

/**
 * What the batch routes answer, with the fields these tests read: a batch, a page of batches, or the
 * error envelope. A field the answer lacks reads undefined, and the assertion that reads it fails.
 */
export interface BatchAnswerBody extends Omit<BatchObject, 'error'> {
  readonly error: { readonly code: number | string; readonly message: string }
  readonly data: readonly BatchObject[]
  readonly has_more: boolean
  readonly first_id: string
  readonly last_id: string
}

export interface BatchAnswer {
  readonly status: number
  /** The parsed JSON: every batch route answers with a JSON body. */
  readonly body: BatchAnswerBody
}

export interface BatchFixture {
  readonly gateway: TestGateway
  readonly upstream: FakeUpstream
  readonly key: string
  request(method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown): Promise<BatchAnswer>
  submit(payload: unknown): Promise<BatchAnswer>
  /** Polls GET /batches/{id} until `done(body)` holds; fails when the batch makes no progress for 60 s. */
  waitFor(id: string, done: (answer: BatchAnswer) => boolean): Promise<BatchAnswer>
  /**
   * The gateway's batch worker. It polls on real time, so a test that moves the injected clock wakes it to
   * run the pass that time allows, or stops it to arrange lines no worker takes yet.
   */
  readonly worker: Pick<BatchWorker, 'wake' | 'stop' | 'start'>
  /** Closes the gateway (and the upstream when this fixture started it), keeping a shared store. */
  close(options?: { keepStore?: boolean; keepUpstream?: boolean }): Promise<void>
}

export const model = 'test/chat'
export const embeddingModel = 'test/embed'
/** The embedding model's price: 0.0000001 USD = 100 nano-dollars per prompt token. */
export const embeddingNanoPerToken = 100n
export const maxEmbeddingInputChars = 2000

export function yamlFor(upstream: FakeUpstream, options: BatchFixtureOptions): string {
  return [
    'providers:',
    `  - { slug: fake, name: Fake, api: openai-chat, base_url: "${upstream.url}", api_key: upstream-secret }`,
    'models:',
    `  - slug: ${model}`,
    '    endpoints:',
    '      - { provider: fake, upstream_model_id: up-chat, max_output_tokens: 1000, pricing: { prompt: "0.000001", completion: "0.000002" } }',
    `  - slug: ${embeddingModel}`,
    '    kind: embedding',
    '    endpoints:',
    '      - { provider: fake, upstream_model_id: up-embed, pricing: { prompt: "0.0000001", completion: "0" } }',
    `embeddings: { max_input_chars: ${maxEmbeddingInputChars} }`,
    'egress: { allow_private_networks: true }',
    `credits: { enforce: ${options.enforceCredits === true} }`,
    `durability: { write_behind: ${options.writeBehind === true} }`,
    `batches: { poll_interval_ms: 50, concurrency: 64, per_batch_concurrency: ${options.perBatchConcurrency ?? 32}, webhook_secret: whsec_dGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQ= }`,
    '',
  ].join('\n')
}

export function chatLines(count: number, prefix = 'line'): { custom_id: string; body: unknown }[] {
  return Array.from({ length: count }, (_, index) => ({
    custom_id: `${prefix}-${index}`,
    body: { messages: [{ role: 'user', content: `${prefix} ${index}` }], max_tokens: 50 },
  }))
}

/** Embeddings lines with one text input each, `input` of line i being i + 1 words. */
export function embeddingLines(count: number, prefix = 'text'): { custom_id: string; body: { input: string } }[] {
  return Array.from({ length: count }, (_, index) => ({
    custom_id: `${prefix}-${index}`,
    body: { input: Array.from({ length: index + 1 }, () => prefix).join(' ') },
  }))
}

export async function startBatchFixture(options: BatchFixtureOptions = {}): Promise<BatchFixture> {
  const ownsUpstream = options.upstream === undefined
  const upstream = options.upstream ?? (await startFakeUpstream({ api: 'openai-chat', apiKey: 'upstream-secret' }))
  const gateway = await startTestGateway({
    yaml: yamlFor(upstream, options),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    ...(options.postgresUrl === undefined ? {} : { postgresUrl: options.postgresUrl }),
    ...(options.redis === undefined
      ? {}
      : { env: { REDIS_URL: options.redis.url }, redisKeyPrefix: options.redis.keyPrefix }),
  })
  let key = options.key
  if (key === undefined) {
    const created = await gateway.inject({
      method: 'POST',
      url: '/api/v1/keys',
      headers: bearer(gateway.adminKey),
      payload: { name: 'batches' },
    })
    assert.equal(created.statusCode, 201, created.body)
    key = (created.json() as { key: string }).key
  }
  const request: BatchFixture['request'] = async (method, path, payload) => {
    const response = await gateway.inject({
      method,
      url: path,
      headers: bearer(key),
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: response.statusCode, body: response.json() }
  }
  return {
    gateway,
    upstream,
    key,
    // internals: no API pauses or wakes the batch worker.
    worker: gateway.internals.batchWorker,
    request,
    submit: (payload) => request('POST', '/api/v1/batches', payload),
    async waitFor(id, done) {
      // Fails only when the batch stops moving: on a loaded machine a large batch may take minutes, but
      // its counts (or status) change every few seconds while it runs.
      let deadline = Date.now() + 60_000
      let progress = ''
      for (;;) {
        const answer = await request('GET', `/api/v1/batches/${id}`)
        if (done(answer)) return answer
        const now = JSON.stringify([answer.body?.status, answer.body?.request_counts])
        if (now !== progress) {
          progress = now
          deadline = Date.now() + 60_000
        }
        if (Date.now() > deadline)
          assert.fail(`batch ${id} did not reach the expected state: ${JSON.stringify(answer.body).slice(0, 500)}`)
        await sleep(25)
      }
    },
    async close(closeOptions = {}) {
      if (closeOptions.keepStore === true) await gateway.gateway.close()
      else await gateway.close()
      if (ownsUpstream && closeOptions.keepUpstream !== true) await upstream.close()
    },
  }
}

export const isTerminal = (answer: BatchAnswer): boolean =>
  ['completed', 'failed', 'expired', 'cancelled'].includes(answer.body?.status)
