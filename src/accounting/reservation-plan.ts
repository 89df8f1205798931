// Which counters a call reserves against (pure). Order matters: the first refusing scope is the one
// reported, so the key limit comes first, then budgets, then the credit balance, then the
// unlimited tracking counters that let usage_daily and friends be read back.

import type { Clock } from '../domain/clock.ts'
import { usdToNano } from '../domain/money.ts'
import type { LimitedScope } from '../counters/spend-counters.ts'
import { defaultTtlMarginSeconds, keySpendBaseId, usagePeriods, windowedScope } from './key-scopes.ts'
import type { KeySpendFamily, UsagePeriod } from './key-scopes.ts'
import type { WindowPeriod } from './windows.ts'

/** The key's limit settings, as the API key resource spells them. */
export interface KeyLimitSettings {
  /** USD, or null for no limit. */
  readonly limit: number | null
  readonly limit_reset: WindowPeriod | null
  readonly include_byok_in_limit: boolean
}

/** The organization's credit balance: spend counted in `scopeId` may not pass the total granted. */
export interface CreditBalance {
  readonly scopeId: string
  readonly totalCreditsNano: bigint
}

export interface ReservationPlanInput {
  readonly keyHash: string
  readonly key: KeyLimitSettings
  /** The call runs on the customer's own provider key. */
  readonly isByok: boolean
  /** Checked for non-BYOK calls only (a BYOK call's upstream cost is not paid from credits). */
  readonly credits?: CreditBalance | null
  /** Guardrail, workspace or other budgets, already windowed (see `windowedScope`). */
  readonly budgets?: readonly LimitedScope[]
  readonly clock: Clock
  readonly ttlMarginSeconds?: number
}

export interface ReservationPlan {
  readonly scopes: readonly LimitedScope[]
  /** The scope that carries the key's limit, or null when the key's limit does not apply to this call. */
  readonly keyLimitScopeId: string | null
}

/** The period whose counter the key's limit checks. */
export function limitPeriod(key: KeyLimitSettings): UsagePeriod {
  return key.limit_reset ?? 'lifetime'
}

/** The family whose counter the key's limit checks. */
export function limitFamily(key: KeyLimitSettings): KeySpendFamily {
  return key.include_byok_in_limit ? 'total' : 'usage'
}

export function planReservation(input: ReservationPlanInput): ReservationPlan {
  const { key, keyHash, clock } = input
  const margin = input.ttlMarginSeconds ?? defaultTtlMarginSeconds
  const families: KeySpendFamily[] = [input.isByok ? 'byok' : 'usage', 'total']
  const limitApplies = key.limit !== null && families.includes(limitFamily(key))
  const tracking = families.flatMap((family) =>
    usagePeriods.map((period) => {
      const isLimit = limitApplies && family === limitFamily(key) && period === limitPeriod(key)
      const limitNano = isLimit && key.limit !== null ? usdToNano(key.limit) : null
      return windowedScope(keySpendBaseId(keyHash, family), period, limitNano, clock, margin)
    }),
  )
  const keyLimit = tracking.filter((scope) => scope.limitNano !== null)
  const credits = !input.isByok && input.credits != null ? [{ id: input.credits.scopeId, limitNano: input.credits.totalCreditsNano }] : []
  return {
    scopes: [...keyLimit, ...(input.budgets ?? []), ...credits, ...tracking.filter((scope) => scope.limitNano === null)],
    keyLimitScopeId: keyLimit[0]?.id ?? null,
  }
}
