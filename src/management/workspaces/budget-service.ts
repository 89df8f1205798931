// Workspace budgets: one optional limit per window (daily, weekly, monthly, lifetime) and a
// workspace-wide flag saying whether bring-your-own-key usage counts. Enforcement reads them from the
// WorkspaceCache; changes are announced under 'workspace'.
import { randomUUID } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import type { WorkspaceBudgetRow, WorkspacesRepository } from '../../store/repositories/workspaces-repository.ts'
import { findBudgetOrderConflict } from './budget-order.ts'
import { formatUsdDecimal } from './format-usd-decimal.ts'
import type { BudgetInterval, WorkspaceBudget } from './schema.ts'
import type { WorkspaceService } from './service.ts'
import { toBudgetObject } from './workspace-object.ts'

export interface BudgetServiceDeps {
  readonly workspaces: WorkspacesRepository
  readonly workspaceService: WorkspaceService
  readonly clock: Clock
  readonly changeBus: ChangeBus
}

interface BudgetReply<T> {
  data: T
  include_byok_in_budgets: boolean
}

export function createBudgetService(deps: BudgetServiceDeps) {
  return {
    list: (idOrSlug: string): Promise<BudgetReply<WorkspaceBudget[]>> => listBudgets(deps, idOrSlug),
    get: (idOrSlug: string, interval: BudgetInterval): Promise<BudgetReply<WorkspaceBudget>> =>
      getBudget(deps, idOrSlug, interval),
    put: (
      idOrSlug: string,
      interval: BudgetInterval,
      limitUsd: number,
      includeByok: boolean | undefined,
    ): Promise<BudgetReply<WorkspaceBudget>> => putBudget(deps, idOrSlug, interval, limitUsd, includeByok),
    delete: (idOrSlug: string, interval: BudgetInterval): Promise<void> => deleteBudget(deps, idOrSlug, interval),
  }
}

async function listBudgets(deps: BudgetServiceDeps, idOrSlug: string): Promise<BudgetReply<WorkspaceBudget[]>> {
  const workspace = await deps.workspaceService.resolve(idOrSlug)
  const rows = await deps.workspaces.listBudgets(workspace.id)
  return { data: rows.map(toBudgetObject), include_byok_in_budgets: workspace.include_byok_in_budgets === 1 }
}

async function getBudget(
  deps: BudgetServiceDeps,
  idOrSlug: string,
  interval: BudgetInterval,
): Promise<BudgetReply<WorkspaceBudget>> {
  const workspace = await deps.workspaceService.resolve(idOrSlug)
  const row = (await deps.workspaces.listBudgets(workspace.id)).find((budget) => budget.interval === interval)
  if (row === undefined) {
    throw new GatewayError(
      'not_found',
      `Workspace "${workspace.slug}" has no ${interval} budget: set one with PUT /api/v1/workspaces/${workspace.slug}/budgets/${interval}`,
    )
  }
  return { data: toBudgetObject(row), include_byok_in_budgets: workspace.include_byok_in_budgets === 1 }
}

/** Refuses a limit that would break lifetime > monthly > weekly > daily among the workspace's budgets. */
function assertBudgetOrder(rows: readonly WorkspaceBudgetRow[], interval: BudgetInterval, limitUsd: number): void {
  const limits: Partial<Record<BudgetInterval, number>> = Object.fromEntries(
    rows.map((row) => [row.interval, Number(row.limit_usd)]),
  )
  limits[interval] = limitUsd
  const conflict = findBudgetOrderConflict(limits)
  if (conflict !== undefined) {
    throw new GatewayError(
      'invalid_request',
      `The ${conflict.longer} budget (${conflict.longerLimit} USD) must be greater than the ${conflict.shorter} budget (${conflict.shorterLimit} USD): limits must strictly decrease lifetime > monthly > weekly > daily`,
      { metadata: { conflicting_intervals: [conflict.longer, conflict.shorter] } },
    )
  }
}

async function putBudget(
  deps: BudgetServiceDeps,
  idOrSlug: string,
  interval: BudgetInterval,
  limitUsd: number,
  includeByok: boolean | undefined,
): Promise<BudgetReply<WorkspaceBudget>> {
  const workspace = await deps.workspaceService.resolve(idOrSlug)
  const rows = await deps.workspaces.listBudgets(workspace.id)
  assertBudgetOrder(rows, interval, limitUsd)
  const now = deps.clock.now().toISOString()
  const existing = rows.find((row) => row.interval === interval)
  const budget: WorkspaceBudgetRow = {
    id: existing?.id ?? randomUUID(),
    workspace_id: workspace.id,
    interval,
    limit_usd: formatUsdDecimal(limitUsd),
    created_at: existing?.created_at ?? now,
    updated_at: now,
  }
  await deps.workspaces.upsertBudget(budget, includeByok)
  deps.changeBus.publish('workspace', workspace.id)
  return {
    data: toBudgetObject(budget),
    include_byok_in_budgets: includeByok ?? workspace.include_byok_in_budgets === 1,
  }
}

async function deleteBudget(deps: BudgetServiceDeps, idOrSlug: string, interval: BudgetInterval): Promise<void> {
  const workspace = await deps.workspaceService.resolve(idOrSlug)
  await deps.workspaces.deleteBudget(workspace.id, interval)
  deps.changeBus.publish('workspace', workspace.id)
}

export type BudgetService = ReturnType<typeof createBudgetService>
