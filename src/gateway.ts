// Assembles a running gateway from a Config: store, migrations, identity bootstrap, caches, services
// and the HTTP app. main.ts and the end-to-end tests both start here, so tests run what users run.
import pino, { type Logger } from 'pino'
import type { Config } from './config/config.ts'
import type { Clock } from './domain/clock.ts'
import { openStore, type Store } from './store/open-store.ts'
import { migrateToLatest } from './store/migrate.ts'
import { bootstrapIdentity, type BootstrapResult } from './identity/bootstrap-identity.ts'
import { createApiKeysRepository } from './store/repositories/api-keys-repository.ts'
import { createOrganizationsRepository } from './store/repositories/organizations-repository.ts'
import { KeyCache } from './identity/key-cache.ts'
import { LastUsedRecorder } from './identity/last-used-recorder.ts'
import { ChangeBus } from './events/change-bus.ts'
import { createHttpMetrics } from './http/metrics.ts'
import { buildApp, type App } from './app.ts'
import { createOrganizationService } from './management/organization/service.ts'
import { loadMasterKey } from './vault/master-key.ts'
import { SecretBox } from './vault/secret-box.ts'
import { buildCatalog } from './inference/catalog/build-catalog.ts'
import type { Catalog } from './domain/catalog.ts'
import { GenerationStore } from './generations/generation-store.ts'
import { ContentRetention } from './generations/content-retention.ts'
import type { SpendCounters } from './counters/spend-counters.ts'
import { openSpendCounters } from './accounting/open-spend-counters.ts'
import { LedgerWriter } from './accounting/ledger-writer.ts'
import { replayLedger } from './accounting/replay-ledger.ts'
import { CreditBalance } from './accounting/credit-balance.ts'
import { createAccountingService, type AccountingService } from './accounting/accounting-service.ts'
import { createLedgerRepository } from './store/repositories/ledger-repository.ts'
import { createCreditGrantsRepository } from './store/repositories/credit-grants-repository.ts'
import { createKeysService } from './management/keys/service.ts'
import { createCreditsService } from './management/credits/service.ts'
import { createInternAndVault } from './management/interns/intern-and-vault.ts'
import { internServerTools } from './interns/intern-server-tools.ts'
import { createInternRuntime } from './interns/create-intern-runtime.ts'
import type { InternRuntime } from './interns/intern-runtime.ts'
import { ChatSessions } from './interns/chat-sessions.ts'
import { createWorkspacesRepository } from './store/repositories/workspaces-repository.ts'
import { createWorkspaceService } from './management/workspaces/service.ts'
import { createBudgetService } from './management/workspaces/budget-service.ts'
import { WorkspaceCache } from './workspaces/workspace-cache.ts'
import { createGuardrailsRepository } from './store/repositories/guardrails-repository.ts'
import { createGuardrailAssignmentsRepository } from './store/repositories/guardrail-assignments-repository.ts'
import { GuardrailCache } from './guardrails/guardrail-cache.ts'
import type { ContentFilterFinding } from './guardrails/content-filter-engine.ts'
import { createGuardrailService } from './management/guardrails/service.ts'
import { createAssignmentService } from './management/guardrails/assignment-service.ts'
import { createEndUsersRepository } from './store/repositories/end-users-repository.ts'
import { createEndUsersService } from './management/end-users/service.ts'
import { createPresetsRepository } from './store/repositories/presets-repository.ts'
import { createPresetsService } from './management/presets/service.ts'
import { PresetCache } from './presets/preset-cache.ts'
import { createObservability } from './observability/create-observability.ts'
import type { GenerationBroadcaster } from './observability/generation-broadcaster.ts'
import { createDialectRegistry } from './dialects/registry.ts'
import type { Dialect, DialectName } from './dialects/dialect.ts'
import { GenerationIds } from './inference/generation-ids.ts'
import type { InferenceDeps } from './inference/inference-deps.ts'
import type { ApiKeyRecord } from './domain/identity.ts'
import { CircuitBreaker } from './inference/routing/circuit-breaker.ts'
import { EndpointStats } from './inference/routing/endpoint-stats.ts'
import { StickySessions } from './inference/routing/sticky-sessions.ts'
import { UpstreamTransport } from './inference/upstream/upstream-transport.ts'
import { workspaceSettingsFrom } from './inference/workspace-settings.ts'
import { createPrivateEndpoints } from './private-endpoints/create-private-endpoints.ts'
import { invokeInference, type InvokeInput } from './inference/invoke-inference.ts'
import { openRateLimiter } from './rate-limits/open-rate-limiter.ts'
import { RateLimitPolicy } from './rate-limits/rate-limit-policy.ts'
import { createGatewayMetrics } from './http/gateway-metrics.ts'
import { openChangeTransport } from './events/open-change-transport.ts'
import { CacheRefresher } from './events/cache-refresher.ts'
import { createBatches } from './batches/create-batches.ts'
import type { BatchWorker } from './batches/batch-worker.ts'

export interface Gateway {
  readonly app: App
  readonly store: Store
  readonly bootstrap: BootstrapResult
  readonly logger: Logger
  readonly changeBus: ChangeBus
  /** Seals secrets at rest under the master key (vault data keys, destination and provider credentials). */
  readonly secretBox: SecretBox
  readonly catalog: Catalog
  readonly generations: GenerationStore
  /** Spend counters: Redis when `store.redis_url` is set, memory otherwise. */
  readonly counters: SpendCounters
  /** Reserve / settle / release for the inference routes. */
  readonly accounting: AccountingService
  /** The batched ledger writer (flushed on close). */
  readonly ledger: LedgerWriter
  /** Workspaces in memory for the inference path (refreshed by 'workspace' change events). */
  readonly workspaceCache: WorkspaceCache
  /** Guardrails and assignments in memory; `effectiveRulesFor(key)` gives a request's rules. */
  readonly guardrailCache: GuardrailCache
  /** Designated preset versions in memory, for applying presets at inference. */
  readonly presetCache: PresetCache
  /** Inference calls `observability.enqueueGeneration(trace)` once per finished generation (never throws). */
  readonly observability: GenerationBroadcaster
  /** The inference pipeline's dialects and dependencies, for in-process calls (invokeInference). */
  readonly inference: { readonly dialects: Readonly<Record<DialectName, Dialect>>; readonly deps: InferenceDeps }
  /** Provisions, runs and tears down interns (started with the gateway). */
  readonly internRuntime: InternRuntime
  /** Runs submitted batches (started with the gateway, stopped by close). */
  readonly batchWorker: BatchWorker
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

export function createLogger(config: Config): Logger {
  return pino({
    level: config.log_level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'headers.authorization',
        '*.api_key',
        '*.apiKey',
        '*.secret',
        '*.password',
        '*.value',
      ],
      censor: '[redacted]',
    },
  })
}

export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const { config, clock } = options
  const logger = options.logger ?? createLogger(config)
  const catalog = buildCatalog(config)
  const store = openStore(config.store.database_url)
  const spend = openSpendCounters(
    config,
    clock,
    options.redisKeyPrefix === undefined ? {} : { redisKeyPrefix: options.redisKeyPrefix },
  )
  const rate = await openRateLimiter(
    config,
    clock,
    options.redisKeyPrefix === undefined ? {} : { redisKeyPrefix: options.redisKeyPrefix },
  )
  try {
    await migrateToLatest(store)
    const bootstrap = await bootstrapIdentity(store, clock, config.secrets.admin_key)
    const changeBus = new ChangeBus()
    const masterKey = loadMasterKey(config.secrets.master_key, config.store.data_dir)
    if (masterKey.origin === 'generated') {
      logger.warn(
        { path: masterKey.path },
        'SWITCHYARD_MASTER_KEY is not set: generated a master key into the data directory; set SWITCHYARD_MASTER_KEY when running several instances',
      )
    }
    const secretBox = new SecretBox(masterKey.key)
    const apiKeys = createApiKeysRepository(store.db)
    const keyCache = new KeyCache(apiKeys, clock, changeBus)
    await keyCache.load()
    const lastUsed = new LastUsedRecorder(apiKeys, clock, (error) =>
      logger.warn({ err: error }, 'could not record key last_used_at'),
    )
    lastUsed.start()
    const generations = new GenerationStore(store.db, store.writes, (error) =>
      logger.error({ err: error }, 'could not write generation records'),
    )
    generations.start()
    const retention = new ContentRetention(generations, clock, config.generations.content_retention_days, (error) =>
      logger.warn({ err: error }, 'generation content retention sweep failed'),
    )
    retention.start()
    const organizations = createOrganizationsRepository(store.db)
    const ledgerRepository = createLedgerRepository(store.db, store.writes)
    if (spend.engine === 'memory') await replayLedger(ledgerRepository, spend.counters)
    const ledger = new LedgerWriter(ledgerRepository, {
      onError: (error) => logger.error({ err: error }, 'could not write ledger rows; will retry'),
    })
    ledger.start()
    const grants = createCreditGrantsRepository(store.db)
    const organizationId = bootstrap.organizationId
    const credits = new CreditBalance({ grants, organizationId, clock, bus: changeBus })
    const accounting = createAccountingService({
      counters: spend.counters,
      clock,
      ledger,
      credits,
      enforceCredits: config.credits.enforce,
    })
    const workspaces = createWorkspacesRepository(store.db)
    const workspaceCache = new WorkspaceCache(workspaces, changeBus)
    await workspaceCache.load()
    const workspaceService = createWorkspaceService({
      workspaces,
      clock,
      changeBus,
      organizationId: bootstrap.organizationId,
    })
    const guardrails = createGuardrailsRepository(store.db)
    const guardrailAssignments = createGuardrailAssignmentsRepository(store.db)
    const guardrailCache = new GuardrailCache(guardrails, guardrailAssignments, changeBus)
    await guardrailCache.load()
    const guardrailService = createGuardrailService({
      guardrails,
      workspaces,
      workspaceService,
      clock,
      changeBus,
      organizationId: bootstrap.organizationId,
    })
    const presets = createPresetsRepository(store.db)
    const presetCache = new PresetCache(presets, changeBus, (error) =>
      logger.warn({ err: error }, 'could not refresh a cached preset'),
    )
    await presetCache.load()
    const changeTransport = await openChangeTransport({
      bus: changeBus,
      redisUrl: config.store.redis_url,
      databaseUrl: config.store.database_url,
      schema: store.schema,
      ...(options.redisKeyPrefix === undefined ? {} : { redisKeyPrefix: options.redisKeyPrefix }),
      onError: (error) =>
        logger.warn({ err: error }, 'cross-instance change delivery failed; caches heal at the next periodic refresh'),
    })
    const refresher = new CacheRefresher(
      [
        { name: 'api_keys', load: () => keyCache.load() },
        { name: 'workspaces', load: () => workspaceCache.load() },
        { name: 'guardrails', load: () => guardrailCache.load() },
        { name: 'presets', load: () => presetCache.load() },
      ],
      options.cacheRefreshMs ?? 5_000,
      (cache, error) => logger.warn({ err: error, cache }, 'could not refresh a cache; keeping its previous contents'),
    )
    if (changeTransport.kind !== 'none') refresher.start()
    const observability = createObservability({
      db: store.db,
      writes: store.writes,
      config,
      clock,
      secretBox,
      logger,
      changeBus,
    })
    const transport = new UpstreamTransport()
    const privateEndpoints = await createPrivateEndpoints({
      db: store.db,
      clock,
      logger,
      changeBus,
      secretBox,
      catalog,
      transport,
      organizationId,
      egress: { allowPrivateNetworks: config.egress.allow_private_networks },
    })
    const metrics = createHttpMetrics()
    const gatewayMetrics = createGatewayMetrics(metrics.registry)
    const rateLimits = new RateLimitPolicy({
      limiter: rate.limiter,
      limits: config.rate_limits,
      clock,
      decisions: gatewayMetrics.rateLimitDecisions,
      onError: (error) =>
        logger.warn(
          { err: error },
          'rate limits are unavailable; admitting the request (money checks still fail closed)',
        ),
    })
    const breaker = new CircuitBreaker(clock)
    gatewayMetrics.observeBreakers(() => breaker.snapshot())
    gatewayMetrics.observeCache('api_keys', () => ({ entries: keyCache.size, ...keyCache.lookups }))
    gatewayMetrics.observeCache('workspaces', () => ({ entries: workspaceCache.size }))
    gatewayMetrics.observeOutbox(() => observability.outboxDepth())
    gatewayMetrics.observeDirectDelivery(() => observability.recordsInMemory())
    const inference = {
      dialects: createDialectRegistry(),
      deps: {
        clock,
        generationIds: new GenerationIds(),
        logger,
        routing: {
          catalog,
          breaker,
          stats: new EndpointStats(),
          sticky: new StickySessions(clock),
          privateEndpoints: privateEndpoints.cache,
        },
        transport,
        accounting,
        generations,
        workspaceSettings: workspaceSettingsFrom((id) => workspaceCache.get(id)),
        guardrailRules: (key: ApiKeyRecord) => guardrailCache.effectiveRulesFor(key),
        presets: (workspaceId: string, slug: string) => presetCache.get(workspaceId, slug),
        tokenLimits: rateLimits,
        onContentFilterMatches: (findings: readonly ContentFilterFinding[]) =>
          gatewayMetrics.countContentFilterMatches(findings),
        onAttempts: (attempts: readonly { readonly provider: string; readonly status: number }[]) => {
          for (const attempt of attempts)
            gatewayMetrics.upstreamAttempts.inc({ provider: attempt.provider, status: String(attempt.status) })
        },
        onGeneration: (trace: Parameters<GenerationBroadcaster['enqueueGeneration']>[0]) =>
          void observability.broadcaster.enqueueGeneration(trace),
        serverTools: {
          settings: config.server_tools,
          egress: { allowPrivateNetworks: config.egress.allow_private_networks },
          invoke: (input: InvokeInput) => invokeInference(input, inference.dialects, inference.deps),
        },
      },
    }
    const internAndVault = createInternAndVault({ db: store.db, config, clock, changeBus, masterBox: secretBox })
    const internRuntime = createInternRuntime({
      db: store.db,
      config,
      clock,
      changeBus,
      internAndVault,
      organizationId,
      logger,
    })
    const batches = createBatches({
      store,
      config,
      clock,
      logger,
      inference,
      keyCache,
      credits,
      counters: spend.counters,
      flushLedger: () => ledger.flush(),
    })
    const app = await buildApp({
      internIdForHost: (hostname) => internRuntime.findByHostname(hostname)?.id,
      inference,
      config,
      logger,
      clock,
      keyCache,
      metrics,
      rateLimits,
      ping: () => store.ping(),
      onKeyUsed: (hash) => lastUsed.mark(hash),
      catalog,
      generations,
      services: {
        organization: createOrganizationService({ organizations, clock, organizationId: bootstrap.organizationId }),
        keys: createKeysService({
          apiKeys,
          organizations,
          counters: spend.counters,
          clock,
          bus: changeBus,
          organizationId,
          defaultWorkspaceId: bootstrap.defaultWorkspaceId,
          ownerUserId: bootstrap.ownerUserId,
        }),
        credits: createCreditsService({ grants, counters: spend.counters, clock, bus: changeBus, organizationId }),
        internAndVault,
        internChat: {
          runtime: internRuntime,
          area: internAndVault,
          sessions: new ChatSessions(),
          config,
          invoke: (key, body) =>
            invokeInference({ key, dialect: 'openai-chat', body }, inference.dialects, inference.deps),
          serverTools: (key, model, mode, signal) =>
            internServerTools(
              {
                clock,
                key,
                model,
                catalog,
                signal,
                settings: config.server_tools,
                egress: { allowPrivateNetworks: config.egress.allow_private_networks },
                invoke: (input) => invokeInference({ ...input, key }, inference.dialects, inference.deps),
              },
              mode,
            ),
        },
        workspaces: workspaceService,
        workspaceBudgets: createBudgetService({ workspaces, workspaceService, clock, changeBus }),
        guardrails: guardrailService,
        guardrailAssignments: createAssignmentService({
          assignments: guardrailAssignments,
          workspaces,
          guardrailService,
          clock,
          changeBus,
          organizationId: bootstrap.organizationId,
        }),
        endUsers: createEndUsersService({ endUsers: createEndUsersRepository(store.db), clock }),
        presets: createPresetsService({ presets, clock, changeBus }),
        observability: observability.service,
        privateEndpoints: privateEndpoints.service,
        batches: batches.service,
      },
    })
    observability.start()
    batches.worker.start()
    if (config.interns.runtime !== false) await internRuntime.start()
    const close = async (): Promise<void> => {
      await batches.worker.stop()
      await app.fastify.close()
      await internRuntime.stop()
      await refresher.stop()
      await changeTransport.close()
      await transport.close()
      await ledger.close()
      if (ledger.pendingCount > 0)
        logger.error(
          { rows: ledger.pendingCount },
          'could not write ledger rows before shutdown: their spend is in the counters but missing from the ledger',
        )
      await lastUsed.stop()
      retention.stop()
      await generations.stop()
      await presetCache.settled()
      presetCache.close()
      await observability.stop()
      await spend.close()
      await rate.close()
      await store.close()
    }
    return {
      app,
      store,
      bootstrap,
      logger,
      changeBus,
      secretBox,
      catalog,
      generations,
      counters: spend.counters,
      accounting,
      ledger,
      workspaceCache,
      guardrailCache,
      presetCache,
      observability: observability.broadcaster,
      inference,
      internRuntime,
      batchWorker: batches.worker,
      close,
    }
  } catch (error) {
    await spend.close()
    await rate.close()
    await store.close()
    throw error
  }
}
