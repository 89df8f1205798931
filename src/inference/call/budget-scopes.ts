// The guardrail and workspace budgets a call is reserved against, each in its own calendar window.
import type { Clock } from '../../domain/clock.ts'
import { ATTO_PER_NANO, parsePrice } from '../../domain/money.ts'
import { windowedScope } from '../../accounting/key-scopes.ts'
import type { LimitedScope } from '../../counters/spend-counters.ts'
import type { EffectiveRules } from '../../guardrails/effective-rules.ts'
import type { WorkspaceBudget } from './call-policy.ts'

function usdToNanoExact(limitUsd: string): bigint {
  return parsePrice(limitUsd) / ATTO_PER_NANO
}

export function budgetScopes(
  rules: EffectiveRules,
  workspaceId: string,
  workspaceBudgets: readonly WorkspaceBudget[],
  clock: Clock,
): LimitedScope[] {
  const scopes: LimitedScope[] = []
  for (const budget of rules.budgets) {
    scopes.push(
      windowedScope(
        `guardrail:${budget.guardrailId}`,
        budget.resetInterval ?? 'lifetime',
        usdToNanoExact(budget.limitUsd),
        clock,
      ),
    )
  }
  for (const budget of workspaceBudgets) {
    scopes.push(windowedScope(`workspace:${workspaceId}`, budget.interval, usdToNanoExact(budget.limitUsd), clock))
  }
  return scopes
}
