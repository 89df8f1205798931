// The inference area: the upstream transport, private endpoints, the rate-limit policy, the gateway's
// metrics, and the one set of inference dependencies every entry point runs through, with
// invokeInference bound to them once for in-process callers (server tools, interns, batches).
import type { Logger } from 'pino'
import type { Config } from '../config/config.ts'
import { credentialSource } from '../config/credential-source.ts'
import type { Clock } from '../domain/clock.ts'
import { nanoToUsd } from '../domain/money.ts'
import type { Catalog } from '../domain/catalog.ts'
import { createDialectRegistry } from '../dialects/registry.ts'
import type { Dialects } from '../dialects/dialect.ts'
import type { EgressPolicy } from '../http/egress-policy.ts'
import { createGatewayMetrics, type GatewayMetrics } from '../http/gateway-metrics.ts'
import { createHttpMetrics, type HttpMetrics } from '../http/metrics.ts'
import type { KeyCache } from '../identity/key-cache.ts'
import { GenerationIds } from '../inference/generation-ids.ts'
import type { InferenceDeps } from '../inference/inference-deps.ts'
import { invokeInference } from '../inference/invoke-inference.ts'
import type { InvokeInput, InvokeResult } from '../inference/call/invoke-port.ts'
import type { CallPolicy } from '../inference/call/call-policy.ts'
import { CircuitBreaker } from '../inference/routing/circuit-breaker.ts'
import { EndpointStats } from '../inference/routing/endpoint-stats.ts'
import { endpointHealth } from '../inference/routing/endpoint-health.ts'
import { RecentOutcomes } from '../inference/routing/recent-outcomes.ts'
import type { EndpointHealth } from '../domain/endpoint-health.ts'
import { StickySessions } from '../inference/routing/sticky-sessions.ts'
import { UpstreamTransport, type CredentialRejection } from '../inference/upstream/upstream-transport.ts'
import { workspaceSettingsFrom } from '../inference/workspace-settings.ts'
import type { Observability } from '../observability/create-observability.ts'
import { createPrivateEndpoints, type PrivateEndpoints } from '../private-endpoints/create-private-endpoints.ts'
import { RateLimitPolicy } from '../rate-limits/rate-limit-policy.ts'
import { CredentialPools } from '../inference/upstream/credential-pools.ts'
import { CredentialLimits } from '../inference/upstream/credential-limits.ts'
import type { Accounting } from './start-accounting.ts'
import type { Foundation } from './open-foundation.ts'
import type { PolicyCaches } from './start-policy-caches.ts'
import type { Shutdown } from './shutdown-stack.ts'
import { ResponseCache } from '../response-cache/response-cache.ts'
import { responseCacheSettings } from '../inference/response-cache-settings.ts'

export interface Inference {
  readonly dialects: Dialects
  readonly deps: InferenceDeps
  /** invokeInference bound to this gateway's dialects and dependencies. */
  invoke(input: InvokeInput): Promise<InvokeResult>
  readonly privateEndpoints: PrivateEndpoints
  readonly rateLimits: RateLimitPolicy
  readonly httpMetrics: HttpMetrics
  /** The live health of every endpoint as this instance sees it (breaker, last five minutes). */
  endpointHealth(): EndpointHealth[]
}

export interface InferenceInputs {
  readonly foundation: Foundation
  readonly accounting: Accounting
  readonly keyCache: KeyCache
  readonly caches: PolicyCaches
  readonly observability: Observability
  readonly catalog: Catalog
  readonly egress: EgressPolicy
  readonly config: Config
  readonly clock: Clock
  readonly logger: Logger
}

export async function startInference(inputs: InferenceInputs, shutdown: Shutdown): Promise<Inference> {
  const { foundation, config, clock, logger } = inputs
  const httpMetrics = createHttpMetrics()
  const gatewayMetrics = createGatewayMetrics(httpMetrics.registry)
  const pools = new CredentialPools(clock, {}, credentialLimits(inputs, gatewayMetrics))
  const transport = new UpstreamTransport(undefined, logRejectedCredentials(config, logger), pools)
  shutdown.defer('upstream transport', () => transport.close())
  const privateEndpoints = await createPrivateEndpoints({
    db: foundation.store.db,
    clock,
    logger,
    changeBus: foundation.changeBus,
    secretBox: foundation.secretBox,
    catalog: inputs.catalog,
    transport,
    organizationId: foundation.bootstrap.organizationId,
    egress: inputs.egress,
  })
  const rateLimits = createRateLimits(inputs, gatewayMetrics)
  const breaker = new CircuitBreaker(clock)
  const outcomes = new RecentOutcomes(clock)
  observeState(gatewayMetrics, breaker, inputs)
  const dialects = createDialectRegistry()
  const deps: InferenceDeps = {
    clock,
    generationIds: new GenerationIds(),
    logger,
    routing: {
      catalog: inputs.catalog,
      breaker,
      stats: new EndpointStats(),
      sticky: new StickySessions(clock),
      privateEndpoints: privateEndpoints.cache,
    },
    transport,
    generations: inputs.accounting.generations,
    settlements: inputs.accounting.settlements,
    policy: callPolicy(inputs, rateLimits),
    responseCaching: responseCaching(inputs, httpMetrics),
    ...attemptHooks(gatewayMetrics, outcomes),
    onGeneration: (trace) => void inputs.observability.broadcaster.enqueueGeneration(trace),
    serverTools: { settings: config.server_tools, egress: inputs.egress, invoke },
  }
  function invoke(input: InvokeInput): Promise<InvokeResult> {
    return invokeInference(input, dialects, deps)
  }
  return {
    dialects,
    deps,
    invoke,
    privateEndpoints,
    rateLimits,
    httpMetrics,
    endpointHealth: () => endpointHealth(inputs.catalog, breaker, outcomes),
  }
}

/** The response cache on the foundation's store, counted on the gateway's metrics registry. */
function responseCaching(inputs: InferenceInputs, httpMetrics: HttpMetrics): InferenceDeps['responseCaching'] {
  const { config } = inputs
  const store = inputs.foundation.responseCacheStore
  return {
    cache: new ResponseCache(store, config.cache.max_entry_bytes, inputs.logger, httpMetrics.registry),
    limits: config.cache,
  }
}

/** Request and token budgets; a limiter outage admits (money checks still fail closed). */
function createRateLimits(inputs: InferenceInputs, gatewayMetrics: GatewayMetrics): RateLimitPolicy {
  return new RateLimitPolicy({
    limiter: inputs.foundation.rateLimiter,
    limits: inputs.config.rate_limits,
    clock: inputs.clock,
    decisions: gatewayMetrics.rateLimitDecisions,
    rules: (key, model) => inputs.caches.rateLimitRules.rulesFor(key, model),
    onError: (error) =>
      inputs.logger.warn(
        { err: error },
        'rate limits are unavailable; admitting the request (money checks still fail closed)',
      ),
  })
}

/** Pool credentials' own rate limits, in the same limiter as the key limits; an outage admits. */
function credentialLimits(inputs: InferenceInputs, gatewayMetrics: GatewayMetrics): CredentialLimits {
  return new CredentialLimits({
    limiter: inputs.foundation.rateLimiter,
    decisions: gatewayMetrics.rateLimitDecisions,
    onError: (error) =>
      inputs.logger.warn({ err: error }, 'rate limits are unavailable; using a pool credential as if it had room'),
  })
}

/** One warn line per 401/403 from an upstream: which provider, why in its words, and where to fix it. */
function logRejectedCredentials(config: Config, logger: Logger): (rejection: CredentialRejection) => void {
  return ({ provider, status, upstreamMessage }) =>
    logger.warn(
      { provider: provider.slug, upstream_status: status, upstream_message: upstreamMessage },
      `provider ${provider.slug} rejected the gateway's credentials (HTTP ${status}: ${upstreamMessage}); check ${credentialSource(config, provider)}`,
    )
}

/** What a call is checked and charged against: accounting, workspace settings, guardrails, presets, limits. */
function callPolicy(inputs: InferenceInputs, rateLimits: RateLimitPolicy): CallPolicy {
  const { caches } = inputs
  return {
    accounting: inputs.accounting.service,
    workspaceSettings: workspaceSettingsFrom((id) => caches.workspaces.get(id)),
    guardrailRules: (key) => caches.guardrails.effectiveRulesFor(key),
    presets: (workspaceId, slug) => caches.presets.get(workspaceId, slug),
    tokenLimits: rateLimits,
    cacheSettings: (key) => responseCacheSettings(key, caches.workspaces.get(key.workspaceId)),
  }
}

/** Metrics and endpoint health from each call: content-filter matches, then its record (tokens, cost, attempts). */
function attemptHooks(
  metrics: GatewayMetrics,
  outcomes: RecentOutcomes,
): Pick<InferenceDeps, 'onContentFilterMatches' | 'onRecorded'> {
  return {
    onContentFilterMatches: (findings) => metrics.countContentFilterMatches(findings),
    onRecorded: (record) => {
      metrics.generations.count(record)
      for (const attempt of record.attempts) {
        metrics.upstreamAttempts.inc({ provider: attempt.provider, status: String(attempt.status) })
        outcomes.record(attempt)
      }
    },
  }
}

/** Gauges read when scraped: breaker states, cache sizes and hit counts, observability delivery depth. */
function observeState(metrics: GatewayMetrics, breaker: CircuitBreaker, inputs: InferenceInputs): void {
  metrics.observeBreakers(() => breaker.snapshot())
  metrics.observeRejectedRows(() => inputs.foundation.store.writes.rejectedRows.counts())
  metrics.observeCache('api_keys', () => ({ entries: inputs.keyCache.size, ...inputs.keyCache.lookups }))
  metrics.observeCache('workspaces', () => ({ entries: inputs.caches.workspaces.size }))
  metrics.observeOutbox(() => inputs.observability.outboxDepth())
  metrics.observeDirectDelivery(() => inputs.observability.recordsInMemory())
  metrics.observeUnbilledExcess(() => nanoToUsd(inputs.accounting.service.unbilledExcessNano()))
}
