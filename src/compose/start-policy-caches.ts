// The policy caches the inference path reads instead of the store (workspaces, guardrails and their
// assignments, designated presets, rate-limit rules), kept fresh by change events: in-process, across instances through
// the change transport, and by a periodic whole reload that heals any missed event.
import type { Logger } from 'pino'
import type { Config } from '../config/config.ts'
import { CacheRefresher } from '../events/cache-refresher.ts'
import { openChangeTransport } from '../events/open-change-transport.ts'
import { GuardrailCache } from '../guardrails/guardrail-cache.ts'
import type { KeyCache } from '../identity/key-cache.ts'
import { PresetCache } from '../presets/preset-cache.ts'
import { createGuardrailAssignmentsRepository } from '../store/repositories/guardrail-assignments-repository.ts'
import { createGuardrailsRepository } from '../store/repositories/guardrails-repository.ts'
import { createPresetsRepository } from '../store/repositories/presets-repository.ts'
import { createRateLimitRulesRepository } from '../store/repositories/rate-limit-rules-repository.ts'
import { RateLimitRuleCache } from '../rate-limits/rate-limit-rule-cache.ts'
import { createWorkspacesRepository } from '../store/repositories/workspaces-repository.ts'
import { WorkspaceCache } from '../workspaces/workspace-cache.ts'
import type { Foundation } from './open-foundation.ts'
import type { Shutdown } from './shutdown-stack.ts'

export interface PolicyCaches {
  readonly workspaces: WorkspaceCache
  readonly guardrails: GuardrailCache
  readonly presets: PresetCache
  readonly rateLimitRules: RateLimitRuleCache
  readonly repositories: {
    readonly workspaces: ReturnType<typeof createWorkspacesRepository>
    readonly guardrails: ReturnType<typeof createGuardrailsRepository>
    readonly guardrailAssignments: ReturnType<typeof createGuardrailAssignmentsRepository>
    readonly presets: ReturnType<typeof createPresetsRepository>
    readonly rateLimitRules: ReturnType<typeof createRateLimitRulesRepository>
  }
}

export interface PolicyCachesInputs {
  readonly foundation: Foundation
  readonly keyCache: KeyCache
  readonly config: Config
  readonly logger: Logger
  readonly redisKeyPrefix: string | undefined
  /** How often every cache is reloaded whole when instances share a store. */
  readonly refreshMs: number
}

export async function startPolicyCaches(inputs: PolicyCachesInputs, shutdown: Shutdown): Promise<PolicyCaches> {
  const { store, changeBus } = inputs.foundation
  const repositories = {
    workspaces: createWorkspacesRepository(store.db),
    guardrails: createGuardrailsRepository(store.db),
    guardrailAssignments: createGuardrailAssignmentsRepository(store.db),
    presets: createPresetsRepository(store.db),
    rateLimitRules: createRateLimitRulesRepository(store.db),
  }
  const workspaces = new WorkspaceCache(repositories.workspaces, changeBus)
  await workspaces.load()
  const guardrails = new GuardrailCache(repositories.guardrails, repositories.guardrailAssignments, changeBus)
  await guardrails.load()
  const presets = new PresetCache(repositories.presets, changeBus, (error) =>
    inputs.logger.warn({ err: error }, 'could not refresh a cached preset'),
  )
  await presets.load()
  shutdown.defer('preset cache', async () => {
    await presets.settled()
    presets.close()
  })
  const rateLimitRules = new RateLimitRuleCache(repositories.rateLimitRules, changeBus)
  await rateLimitRules.load()
  const caches = { workspaces, guardrails, presets, rateLimitRules, repositories }
  await startRefreshing(inputs, caches, shutdown)
  return caches
}

async function startRefreshing(inputs: PolicyCachesInputs, caches: PolicyCaches, shutdown: Shutdown): Promise<void> {
  const { config, logger, foundation } = inputs
  const transport = await openChangeTransport({
    bus: foundation.changeBus,
    redisUrl: config.store.redis_url,
    databaseUrl: config.store.database_url,
    schema: foundation.store.schema,
    ...(inputs.redisKeyPrefix === undefined ? {} : { redisKeyPrefix: inputs.redisKeyPrefix }),
    onError: (error) =>
      logger.warn({ err: error }, 'cross-instance change delivery failed; caches heal at the next periodic refresh'),
  })
  shutdown.defer('change transport', () => transport.close())
  // A single node hears every change in process; only instances sharing a store can miss one.
  if (transport.kind === 'none') return
  const refresher = new CacheRefresher(
    [
      { name: 'api_keys', load: () => inputs.keyCache.load() },
      { name: 'workspaces', load: () => caches.workspaces.load() },
      { name: 'guardrails', load: () => caches.guardrails.load() },
      { name: 'presets', load: () => caches.presets.load() },
      { name: 'rate_limit_rules', load: () => caches.rateLimitRules.load() },
    ],
    inputs.refreshMs,
    (cache, error) => logger.warn({ err: error, cache }, 'could not refresh a cache; keeping its previous contents'),
  )
  refresher.start()
  shutdown.defer('cache refresher', () => refresher.stop())
}
