// The route and the budget scopes of one model call under the key's guardrails and the workspace's
// budgets; shared by the plain pipeline and every step of the server-tool loop.
import type { LimitedScope } from '../../counters/spend-counters.ts'
import type { InferenceDeps, WorkspaceInferenceSettings } from '../inference-deps.ts'
import type { RoutePlan } from '../routing/plan-route.ts'
import { filterPlanByGuardrails } from './apply-guardrails.ts'
import { budgetScopes } from './budget-scopes.ts'
import type { InferenceRequest } from './inference-request.ts'
import type { PreparedCall } from './prepare-call.ts'
import { routeCall } from './route-call.ts'

export function guardedRoute(
  request: InferenceRequest,
  prepared: PreparedCall,
  deps: InferenceDeps,
  settings: WorkspaceInferenceSettings,
): { plan: RoutePlan; budgets: LimitedScope[] } {
  const rules = deps.guardrailRules?.(request.key) ?? null
  const plan = routeCall(request, prepared, deps.routing, settings)
  return {
    plan: rules === null ? plan : filterPlanByGuardrails(plan, rules),
    budgets: budgetScopes(rules, request.key.workspaceId, settings.budgets, deps.clock),
  }
}
