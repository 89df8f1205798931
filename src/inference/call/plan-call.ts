// The plan of a call, computed once: the route (catalog + the request's preferences), cut to what the
// key's guardrails allow (none left -> 403), and the guardrail and workspace budgets the call's worst
// case is reserved against besides the key limit and credits. A server-tool loop plans once and
// reserves every step against the same plan.
import type { LimitedScope } from '../../counters/spend-counters.ts'
import type { Clock } from '../../domain/clock.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import { planRoute, type RoutePlan, type RouteRequest, type RoutingState } from '../routing/plan-route.ts'
import { filterPlanByGuardrails } from './apply-guardrails.ts'
import { budgetScopes } from './budget-scopes.ts'
import type { CallPolicy } from './call-policy.ts'

export interface CallPlan {
  /** The candidates the guardrails allow, in routing order; never empty. */
  readonly plan: RoutePlan
  /** The budgets the call's worst case is reserved against, besides the key limit and credits. */
  readonly budgets: readonly LimitedScope[]
}

export interface PlanDeps {
  readonly clock: Clock
  readonly routing: RoutingState
  readonly policy: Pick<CallPolicy, 'guardrailRules' | 'workspaceSettings'>
}

export function planCall(key: ApiKeyRecord, route: RouteRequest, deps: PlanDeps): CallPlan {
  const rules = deps.policy.guardrailRules(key)
  const settings = deps.policy.workspaceSettings(key)
  return {
    plan: filterPlanByGuardrails(planRoute(route, deps.routing), rules),
    budgets: budgetScopes(rules, key.workspaceId, settings.budgets, deps.clock),
  }
}
