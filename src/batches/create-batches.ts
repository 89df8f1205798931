// Assembles the batches area for the gateway: repository, service (routes), worker and callbacks.
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import type { Dialects } from '../dialects/dialect.ts'
import { createEmbeddingsDecoder } from '../dialects/embeddings/decode-request.ts'
import type { InferenceDeps } from '../inference/inference-deps.ts'
import type { InferenceAccounting } from '../inference/call/call-policy.ts'
import type { KeyCache } from '../identity/key-cache.ts'
import type { CreditBalance } from '../accounting/credit-balance.ts'
import type { SpendCounters } from '../counters/spend-counters.ts'
import type { Store } from '../store/open-store.ts'
import { createBatchesRepository } from '../store/repositories/batches-repository.ts'
import { createBatchService, type BatchService } from './batch-service.ts'
import { BatchWorker } from './batch-worker.ts'
import { createBatchWebhookDelivery } from './batch-webhooks.ts'
import type { LinePipelineDeps } from './line-pipelines.ts'
import { createBatchItemRunner } from './run-batch-item.ts'

export interface CreateBatchesDeps {
  readonly store: Store
  readonly config: Config
  readonly clock: Clock
  readonly logger: FastifyBaseLogger
  readonly inference: { readonly dialects: Dialects; readonly deps: InferenceDeps }
  readonly keyCache: KeyCache
  readonly credits: CreditBalance
  readonly counters: SpendCounters
  /** Reserves a batch line's worst case; the credit balance counts it without limiting it. */
  readonly reserveLine: InferenceAccounting['reserve']
  /**
   * Resolves once the queued ledger rows and generation records are committed: a line's result is
   * stored after them (crash safety), whatever `durability.write_behind` says.
   */
  readonly recordsDurable: () => Promise<void>
}

export function createBatches(deps: CreateBatchesDeps): {
  readonly service: BatchService
  readonly worker: BatchWorker
} {
  const { config, clock, logger } = deps
  const batches = createBatchesRepository(deps.store.db, deps.store.engine)
  const egress = { allowPrivateNetworks: config.egress.allow_private_networks }
  const lines: LinePipelineDeps = {
    dialects: deps.inference.dialects,
    embeddings: { settings: { maxInputChars: config.embeddings.max_input_chars }, decode: createEmbeddingsDecoder() },
  }
  const worker = new BatchWorker({
    batches,
    clock,
    logger,
    runItem: createBatchItemRunner({
      lines,
      inference: deps.inference.deps,
      findKey: (hash) => deps.keyCache.lookup(hash),
      reserveLine: deps.reserveLine,
      evaluatorModel: config.alignment.evaluator_model,
    }),
    recordsDurable: deps.recordsDurable,
    deliverWebhooks: createBatchWebhookDelivery({ batches, egress, secret: config.batches.webhook_secret, logger }),
    options: {
      pollIntervalMs: config.batches.poll_interval_ms,
      concurrency: config.batches.concurrency,
      perBatchConcurrency: config.batches.per_batch_concurrency,
      leaseMs: config.batches.lease_ms,
    },
  })
  const availableBalanceNano = async (): Promise<bigint | null> => {
    if (!config.credits.enforce) return null
    deps.credits.invalidate()
    const [granted, balances] = await Promise.all([
      deps.credits.totalCreditsNano(),
      deps.counters.read([deps.credits.scopeId]),
    ])
    return granted - (balances.get(deps.credits.scopeId)?.spentNano ?? 0n)
  }
  const service = createBatchService({
    batches,
    clock,
    lines,
    maxBodyBytes: config.batches.max_body_bytes,
    maxRequests: config.batches.max_requests,
    egress,
    findKey: (hash) => deps.keyCache.lookup(hash),
    availableBalanceNano,
    onChange: () => worker.wake(),
  })
  return { service, worker }
}
