// The HTTP app over the assembled areas: the management services behind each route module, then
// buildApp. Its close() stops accepting requests and lets the ones in flight finish.
import type { Logger } from 'pino'
import { buildApp, type App, type AppDeps } from '../app.ts'
import type { BatchService } from '../batches/batch-service.ts'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import type { Catalog } from '../domain/catalog.ts'
import { createCreditsService } from '../management/credits/service.ts'
import { createEndUsersService } from '../management/end-users/service.ts'
import { createAssignmentService } from '../management/guardrails/assignment-service.ts'
import { createGuardrailService } from '../management/guardrails/service.ts'
import { createKeysService, type KeyRateLimits, type KeysService } from '../management/keys/service.ts'
import { createOrganizationService } from '../management/organization/service.ts'
import { createPresetsService } from '../management/presets/service.ts'
import { createRateLimitRuleService, type RateLimitRuleService } from '../management/rate-limits/service.ts'
import { createBudgetService } from '../management/workspaces/budget-service.ts'
import { createWorkspaceService } from '../management/workspaces/service.ts'
import type { Observability } from '../observability/create-observability.ts'
import { createEndUsersRepository } from '../store/repositories/end-users-repository.ts'
import {
  createOrganizationsRepository,
  type OrganizationsRepository,
} from '../store/repositories/organizations-repository.ts'
import { loadConsoleAssets } from './load-console-assets.ts'
import type { Foundation } from './open-foundation.ts'
import type { Accounting } from './start-accounting.ts'
import type { Identity } from './start-identity.ts'
import type { Inference } from './start-inference.ts'
import type { Interns } from './start-interns.ts'
import type { PolicyCaches } from './start-policy-caches.ts'
import type { Shutdown } from './shutdown-stack.ts'

export interface HttpAppInputs {
  readonly foundation: Foundation
  readonly identity: Identity
  readonly accounting: Accounting
  readonly caches: PolicyCaches
  readonly observability: Observability
  readonly inference: Inference
  readonly interns: Interns
  readonly batches: BatchService
  readonly catalog: Catalog
  readonly config: Config
  readonly clock: Clock
  readonly logger: Logger
}

export async function buildHttpApp(inputs: HttpAppInputs, shutdown: Shutdown): Promise<App> {
  const { foundation, identity, inference, interns } = inputs
  const app = await buildApp({
    internIdForHost: (hostname) => interns.runtime.findByHostname(hostname)?.id,
    inference: { dialects: inference.dialects, deps: inference.deps },
    config: inputs.config,
    logger: inputs.logger,
    clock: inputs.clock,
    keyCache: identity.keyCache,
    metrics: inference.httpMetrics,
    rateLimits: inference.rateLimits,
    ping: () => foundation.store.ping(),
    onKeyUsed: (hash) => identity.lastUsed.mark(hash),
    changesApplied: () => foundation.changeBus.applied(),
    catalog: inputs.catalog,
    endpointHealth: () => inference.endpointHealth(),
    generations: inputs.accounting.generations,
    consoleAssets: loadConsoleAssets(inputs.config.console.assets_dir),
    services: managementServices(inputs),
  })
  shutdown.defer('http app', () => app.fastify.close())
  const { metricsListener } = app
  if (metricsListener !== null) shutdown.defer('metrics listener', () => metricsListener.close())
  return app
}

function rateLimitRuleService(inputs: HttpAppInputs): RateLimitRuleService {
  const { foundation, caches } = inputs
  return createRateLimitRuleService({
    rules: caches.repositories.rateLimitRules,
    apiKeys: inputs.identity.apiKeys,
    workspaces: caches.repositories.workspaces,
    clock: inputs.clock,
    changeBus: foundation.changeBus,
    organizationId: foundation.bootstrap.organizationId,
  })
}

/** The key service's view of rate-limit rules: read from the cache, a key's deleted with it. */
function keyRateLimits(caches: PolicyCaches, changeBus: Foundation['changeBus']): KeyRateLimits {
  return {
    rulesOf: (hash) => caches.rateLimitRules.rulesOf('key', hash),
    workspaceRulesOf: (workspaceId) => caches.rateLimitRules.rulesOf('workspace', workspaceId),
    deleteRulesOf: async (hash) => {
      const rules = await caches.repositories.rateLimitRules.list({ scope: 'key', target: hash })
      await caches.repositories.rateLimitRules.deleteForTarget('key', hash)
      for (const rule of rules) changeBus.publish('rate_limit', rule.id)
    },
  }
}

function keysService(inputs: HttpAppInputs, organizations: OrganizationsRepository): KeysService {
  const { changeBus, counters, bootstrap } = inputs.foundation
  return createKeysService({
    apiKeys: inputs.identity.apiKeys,
    organizations,
    counters,
    clock: inputs.clock,
    bus: changeBus,
    organizationId: bootstrap.organizationId,
    defaultWorkspaceId: bootstrap.defaultWorkspaceId,
    ownerUserId: bootstrap.ownerUserId,
    rateLimits: keyRateLimits(inputs.caches, changeBus),
    maxCacheTtlSeconds: inputs.config.cache.max_ttl_seconds,
  })
}

function managementServices(inputs: HttpAppInputs): AppDeps['services'] {
  const { foundation, clock, caches } = inputs
  const { store, changeBus, counters, bootstrap } = foundation
  const { organizationId } = bootstrap
  const organizations = createOrganizationsRepository(store.db)
  const { workspaces, guardrails, guardrailAssignments, presets } = caches.repositories
  const workspaceService = createWorkspaceService({
    workspaces,
    clock,
    changeBus,
    organizationId,
    maxCacheTtlSeconds: inputs.config.cache.max_ttl_seconds,
  })
  const guardrailService = createGuardrailService({
    guardrails,
    workspaces,
    workspaceService,
    clock,
    changeBus,
    organizationId,
  })
  return {
    organization: createOrganizationService({ organizations, clock, organizationId }),
    keys: keysService(inputs, organizations),
    credits: createCreditsService({
      grants: inputs.accounting.grants,
      counters,
      clock,
      bus: changeBus,
      organizationId,
    }),
    internAndVault: inputs.interns.area,
    internChat: inputs.interns.chat,
    workspaces: workspaceService,
    workspaceBudgets: createBudgetService({ workspaces, workspaceService, clock, changeBus }),
    guardrails: guardrailService,
    guardrailAssignments: createAssignmentService({
      assignments: guardrailAssignments,
      workspaces,
      guardrailService,
      clock,
      changeBus,
      organizationId,
    }),
    endUsers: createEndUsersService({ endUsers: createEndUsersRepository(store.db), clock }),
    presets: createPresetsService({ presets, clock, changeBus }),
    rateLimits: rateLimitRuleService(inputs),
    observability: inputs.observability.service,
    privateEndpoints: inputs.inference.privateEndpoints.service,
    batches: inputs.batches,
  }
}
