// Assembles a running gateway from a Config, one area at a time, each from explicit inputs. main.ts and
// the end-to-end tests both start here, so tests run what users run. Every part registers its close()
// as it starts: close() stops them in reverse, and a start that fails half-way stops what it started.
import type { Logger } from 'pino'
import type { App } from './app.ts'
import { createBatches } from './batches/create-batches.ts'
import type { Config } from './config/config.ts'
import type { Clock } from './domain/clock.ts'
import type { EgressPolicy } from './http/egress-policy.ts'
import { scrapedMetric } from './http/scraped-metric.ts'
import type { BootstrapResult } from './identity/bootstrap-identity.ts'
import { buildCatalog } from './inference/catalog/build-catalog.ts'
import type { StoreEngine } from './store/open-store.ts'
import type { Catalog } from './domain/catalog.ts'
import { buildHttpApp } from './compose/build-http-app.ts'
import { createLogger } from './compose/create-logger.ts'
import { openFoundation } from './compose/open-foundation.ts'
import { ShutdownStack, startOrUnwind } from './compose/shutdown-stack.ts'
import { startAccounting } from './compose/start-accounting.ts'
import { startIdentity } from './compose/start-identity.ts'
import { startInference } from './compose/start-inference.ts'
import type { BatchWorker } from './batches/batch-worker.ts'
import type { Registry } from 'prom-client'
import { createInterns } from './compose/start-interns.ts'
import { startPolicyCaches } from './compose/start-policy-caches.ts'
import { createGatewayObservability } from './compose/start-observability.ts'
import type { GatewayParts } from './compose/gateway-parts.ts'
import { waitUntilDrained } from './compose/wait-until-drained.ts'

export interface Gateway {
  /** The HTTP application: `app.fastify.inject(...)` in process, `app.fastify.listen(...)` to serve. */
  readonly app: App
  /** What the first start created (organization, default workspace, a management key to print once). */
  readonly bootstrap: BootstrapResult
  readonly logger: Logger
  readonly storeEngine: StoreEngine
  /** The providers and models loaded at start (built-in presets enabled by the environment, and the config file's). */
  readonly catalog: Catalog
  /**
   * Resolves once every write the gateway has accepted is durable and every change has propagated: ledger
   * rows and generation records committed, the in-memory caches (keys, workspaces, guardrails, presets,
   * rate-limit rules, private endpoints) caught up with the changes made so far, and the observability
   * records of finished generations queued (outbox or direct delivery). Rejects when the store refuses the
   * commit (the rows stay queued and are retried). For a consistent read of the store while serving, e.g. a
   * backup; requests accepted after the call may or may not be included.
   */
  drained(): Promise<void>
  /** Stops accepting requests, lets in-flight ones finish, flushes batched writes, closes the store. */
  close(): Promise<void>
}

export interface GatewayOptions {
  readonly config: Config
  readonly clock: Clock
  readonly logger?: Logger
  /** Redis key prefix of the spend counters (tests isolate instances sharing one Redis with it). */
  readonly redisKeyPrefix?: string
  /** How often every cache is reloaded whole when instances share a store (bounded staleness); default 5 s. */
  readonly cacheRefreshMs?: number
}

export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  return (await assembleGateway(options)).gateway
}

/** The gateway and the parts it was assembled from (for tests that assert on state the API does not show). */
export async function assembleGateway(options: GatewayOptions): Promise<{ gateway: Gateway; parts: GatewayParts }> {
  const { config, clock, redisKeyPrefix } = options
  const logger = options.logger ?? createLogger(config)
  const catalog = buildCatalog(config)
  const egress: EgressPolicy = { allowPrivateNetworks: config.egress.allow_private_networks }
  const shutdown = new ShutdownStack((part, error) =>
    logger.error({ err: error, part }, 'could not stop part of the gateway'),
  )
  return startOrUnwind(shutdown, async () => {
    const foundation = await openFoundation({ config, clock, logger, redisKeyPrefix }, shutdown)
    const { store, changeBus } = foundation
    const identity = await startIdentity({ store, clock, changeBus, logger }, shutdown)
    const accounting = await startAccounting({ foundation, config, clock, logger }, shutdown)
    const refreshMs = options.cacheRefreshMs ?? 5_000
    const cacheInputs = { foundation, keyCache: identity.keyCache, config, logger, redisKeyPrefix, refreshMs }
    const caches = await startPolicyCaches(cacheInputs, shutdown)
    const observability = createGatewayObservability(
      { foundation, accounting, egress, config, clock, logger },
      shutdown,
    )
    const areas = { foundation, accounting, caches, observability, catalog, egress, config, clock, logger }
    const inference = await startInference({ ...areas, keyCache: identity.keyCache }, shutdown)
    const interns = createInterns({ ...areas, ...identity, inference }, shutdown)
    const batches = createBatches({
      store,
      config,
      clock,
      logger,
      inference,
      keyCache: identity.keyCache,
      credits: accounting.credits,
      counters: foundation.counters,
      recordsDurable: () => accounting.commits.durable(),
      reserveLine: (input) => accounting.service.reserveAdmittedBatchLine(input),
    })
    registerBatchMetrics(inference.httpMetrics.registry, batches.worker)
    const app = await buildHttpApp({ ...areas, identity, inference, interns, batches: batches.service }, shutdown)
    observability.start()
    batches.worker.start()
    shutdown.defer('batch worker', () => batches.worker.stop())
    if (config.interns.runtime !== false) await interns.runtime.start()
    const batchWorker = batches.worker
    const parts = { foundation, identity, accounting, caches, observability, inference, interns, batchWorker, catalog }
    const gateway = {
      app,
      bootstrap: foundation.bootstrap,
      logger,
      storeEngine: store.engine,
      catalog,
      drained: () => waitUntilDrained(parts),
      close: () => shutdown.close(),
    }
    return { gateway, parts }
  })
}

function registerBatchMetrics(registry: Registry, worker: Pick<BatchWorker, 'retriedLines'>): void {
  registry.registerMetric(
    scrapedMetric(
      'switchyard_batch_lines_retried_total',
      'Batch lines run again because an earlier run stored no result (its worker died or lost its lease); billed once',
      'counter',
      () => [{ labels: {}, value: worker.retriedLines }],
    ),
  )
}
