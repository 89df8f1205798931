// The policy every model call is held to, whatever its entry point (chat, responses, messages, a
// server-tool step, embeddings, a batch line): the key's guardrails drop the endpoints they forbid
// (none left -> 403), and the guardrail and workspace budgets are named for the reservation.
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { LimitedScope } from '../../counters/spend-counters.ts'
import type { InferenceDeps, WorkspaceInferenceSettings } from '../inference-deps.ts'
import type { RoutePlan } from '../routing/plan-route.ts'
import { filterPlanByGuardrails } from './apply-guardrails.ts'
import { budgetScopes } from './budget-scopes.ts'

export interface GuardedPlan {
  /** The candidates the guardrails allow, in routing order; never empty. */
  readonly plan: RoutePlan
  /** The budgets the call's worst case is reserved against, besides the key limit and credits. */
  readonly budgets: LimitedScope[]
}

export function guardPlan(
  key: ApiKeyRecord,
  plan: RoutePlan,
  deps: Pick<InferenceDeps, 'guardrailRules' | 'clock'>,
  settings: WorkspaceInferenceSettings,
): GuardedPlan {
  const rules = deps.guardrailRules(key)
  return {
    plan: filterPlanByGuardrails(plan, rules),
    budgets: budgetScopes(rules, key.workspaceId, settings.budgets, deps.clock),
  }
}
