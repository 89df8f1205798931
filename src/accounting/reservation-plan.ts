// Which counters a call reserves against (pure). Order matters: the first refusing scope is the one
// reported, so the key limit comes first, then budgets, then the credit balance, then the
// unlimited tracking counters that let usage_daily and friends be read back.

import type { Clock } from '../domain/clock.ts'
import { usdToNano } from '../domain/money.ts'
import type { LimitedScope } from '../counters/spend-counters.ts'
import { defaultTtlMarginSeconds, keySpendScope, usagePeriods } from './key-scopes.ts'
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
  const now = clock.now().getTime()
  const families = input.isByok ? byokFamilies : usageFamilies
  const [checkedFamily, checkedPeriod] = [limitFamily(key), limitPeriod(key)]
  const limitNano = key.limit !== null && families.includes(checkedFamily) ? limitToNano(key.limit) : null
  const keyLimit: LimitedScope[] = []
  const tracking: LimitedScope[] = []
  for (const family of families) {
    for (const period of usagePeriods) {
      const isLimit = limitNano !== null && family === checkedFamily && period === checkedPeriod
      const scope = keySpendScope(keyHash, family, period, isLimit ? limitNano : null, now, margin)
      if (isLimit) keyLimit.push(scope)
      else tracking.push(scope)
    }
  }
  const credits =
    !input.isByok && input.credits != null
      ? [{ id: input.credits.scopeId, limitNano: input.credits.totalCreditsNano }]
      : []
  return {
    scopes: [...keyLimit, ...(input.budgets ?? []), ...credits, ...tracking],
    keyLimitScopeId: keyLimit[0]?.id ?? null,
  }
}

const usageFamilies: readonly KeySpendFamily[] = ['usage', 'total']
const byokFamilies: readonly KeySpendFamily[] = ['byok', 'total']

/** Key limits in nano-dollars by their USD value: a handful of distinct limits, converted once each. */
const limitsInNano = new Map<number, bigint>()

function limitToNano(limitUsd: number): bigint {
  let nano = limitsInNano.get(limitUsd)
  if (nano === undefined) {
    if (limitsInNano.size >= 1_000) limitsInNano.clear()
    nano = usdToNano(limitUsd)
    limitsInNano.set(limitUsd, nano)
  }
  return nano
}
