// Workspaces held in memory for the inference path (default models, disabled server tools, I/O logging,
// provider sort, budgets, response caching), so no request reads the store. Loaded at start; every 'workspace' event on
// the change bus re-reads that one workspace (a deleted workspace disappears).
import type { ChangeBus } from '../events/change-bus.ts'
import { InTurn } from '../events/in-turn.ts'
import type { UsagePeriod } from '../accounting/key-scopes.ts'
import { defaultGuardrailId } from '../guardrails/default-guardrail-id.ts'
import type {
  WorkspaceBudgetRow,
  WorkspaceRow,
  WorkspacesRepository,
} from '../store/repositories/workspaces-repository.ts'

export interface CachedBudget {
  readonly interval: UsagePeriod
  /** USD, decimal string. */
  readonly limitUsd: string
}

export interface CachedWorkspace {
  readonly id: string
  readonly slug: string
  readonly name: string
  readonly isDefault: boolean
  readonly defaultGuardrailId: string
  readonly defaultTextModel: string | null
  readonly defaultImageModel: string | null
  readonly defaultProviderSort: string | null
  /** Full server tool names, e.g. `openrouter:web_search`; empty when none is disabled. */
  readonly disabledServerTools: ReadonlySet<string>
  readonly ioLogging: {
    readonly enabled: boolean
    /** null = every key. */
    readonly apiKeyIds: readonly number[] | null
    readonly samplingRate: number
  }
  readonly isObservabilityBroadcastEnabled: boolean
  readonly isDataDiscountLoggingEnabled: boolean
  readonly includeByokInBudgets: boolean
  readonly budgets: readonly CachedBudget[]
  /** Response caching for the workspace's keys: on, off, or left to the request (null). */
  readonly responseCacheEnabled: boolean | null
  readonly responseCacheTtlSeconds: number | null
}

export function toCachedWorkspace(row: WorkspaceRow, budgets: readonly WorkspaceBudgetRow[]): CachedWorkspace {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    isDefault: row.is_default === 1,
    defaultGuardrailId: defaultGuardrailId(row.id),
    defaultTextModel: row.default_text_model,
    defaultImageModel: row.default_image_model,
    defaultProviderSort: row.default_provider_sort,
    disabledServerTools: new Set(
      row.disabled_server_tools === null ? [] : (JSON.parse(row.disabled_server_tools) as string[]),
    ),
    ioLogging: {
      enabled: row.is_observability_io_logging_enabled === 1,
      apiKeyIds: row.io_logging_api_key_ids === null ? null : (JSON.parse(row.io_logging_api_key_ids) as number[]),
      samplingRate: row.io_logging_sampling_rate,
    },
    isObservabilityBroadcastEnabled: row.is_observability_broadcast_enabled === 1,
    isDataDiscountLoggingEnabled: row.is_data_discount_logging_enabled === 1,
    includeByokInBudgets: row.include_byok_in_budgets === 1,
    budgets: budgets
      .filter((budget) => budget.workspace_id === row.id)
      .map((budget) => ({ interval: budget.interval as UsagePeriod, limitUsd: budget.limit_usd })),
    responseCacheEnabled: row.response_cache_enabled === null ? null : row.response_cache_enabled === 1,
    responseCacheTtlSeconds: row.response_cache_ttl_seconds,
  }
}

export class WorkspaceCache {
  readonly #byId = new Map<string, CachedWorkspace>()
  readonly #repository: WorkspacesRepository
  /** Refreshes and whole reloads run in turn (in-turn.ts). */
  readonly #turns = new InTurn()

  constructor(repository: WorkspacesRepository, bus: ChangeBus) {
    this.#repository = repository
    bus.subscribe('workspace', (id) => this.#turns.run(() => this.#refresh(id)).catch(() => undefined))
  }

  load(): Promise<void> {
    return this.#turns.run(() => this.#loadAll())
  }

  async #loadAll(): Promise<void> {
    const rows = await this.#repository.listAll()
    const budgets = await this.#repository.listBudgets()
    this.#byId.clear()
    for (const row of rows) this.#byId.set(row.id, toCachedWorkspace(row, budgets))
  }

  /** Re-reads one workspace (a workspace that no longer exists is dropped). */
  async #refresh(id: string): Promise<void> {
    const row = await this.#repository.find(id)
    if (row === undefined || row.id !== id) {
      this.#byId.delete(id)
      return
    }
    this.#byId.set(id, toCachedWorkspace(row, await this.#repository.listBudgets(id)))
  }

  /** Resolves once every refresh announced so far has been applied. */
  settled(): Promise<void> {
    return this.#turns.settled()
  }

  get(id: string): CachedWorkspace | undefined {
    return this.#byId.get(id)
  }

  getBySlug(slug: string): CachedWorkspace | undefined {
    for (const workspace of this.#byId.values()) if (workspace.slug === slug) return workspace
    return undefined
  }

  defaultWorkspace(): CachedWorkspace | undefined {
    for (const workspace of this.#byId.values()) if (workspace.isDefault) return workspace
    return undefined
  }

  get size(): number {
    return this.#byId.size
  }
}
