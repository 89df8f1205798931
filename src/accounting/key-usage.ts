// The API key resource's spend fields, computed from the key's counters (see key-scopes.ts). Usage is
// settled spend only; holds of calls in flight are not usage yet.

import type { Clock } from '../domain/clock.ts'
import { nanoToUsd, usdToNano } from '../domain/money.ts'
import type { ScopeBalance } from '../counters/spend-counters.ts'
import { keySpendScopeId, usagePeriods } from './key-scopes.ts'
import type { KeySpendFamily, UsagePeriod } from './key-scopes.ts'
import { limitFamily, limitPeriod } from './reservation-plan.ts'
import type { KeyLimitSettings } from './reservation-plan.ts'

export interface KeyUsageFields {
  readonly usage: number
  readonly usage_daily: number
  readonly usage_weekly: number
  readonly usage_monthly: number
  readonly byok_usage: number
  readonly byok_usage_daily: number
  readonly byok_usage_weekly: number
  readonly byok_usage_monthly: number
  /** max(0, limit - spend in the current limit window); null when the key has no limit. */
  readonly limit_remaining: number | null
}

const families: readonly KeySpendFamily[] = ['usage', 'byok', 'total']

/** Every counter `keyUsage` needs, to pass to `SpendCounters.read` in one call. */
export function keyUsageScopeIds(keyHash: string, clock: Clock): string[] {
  return families.flatMap((family) => usagePeriods.map((period) => keySpendScopeId(keyHash, family, period, clock)))
}

export function keyUsage(
  keyHash: string,
  key: KeyLimitSettings,
  balances: ReadonlyMap<string, ScopeBalance>,
  clock: Clock,
): KeyUsageFields {
  const spent = (family: KeySpendFamily, period: UsagePeriod): bigint =>
    balances.get(keySpendScopeId(keyHash, family, period, clock))?.spentNano ?? 0n
  const usd = (family: KeySpendFamily, period: UsagePeriod): number => nanoToUsd(spent(family, period))
  let limitRemaining: number | null = null
  if (key.limit !== null) {
    const remaining = usdToNano(key.limit) - spent(limitFamily(key), limitPeriod(key))
    limitRemaining = nanoToUsd(remaining > 0n ? remaining : 0n)
  }
  return {
    usage: usd('usage', 'lifetime'),
    usage_daily: usd('usage', 'daily'),
    usage_weekly: usd('usage', 'weekly'),
    usage_monthly: usd('usage', 'monthly'),
    byok_usage: usd('byok', 'lifetime'),
    byok_usage_daily: usd('byok', 'daily'),
    byok_usage_weekly: usd('byok', 'weekly'),
    byok_usage_monthly: usd('byok', 'monthly'),
    limit_remaining: limitRemaining,
  }
}
