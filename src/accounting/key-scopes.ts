// Names of a key's spend counters, shared by the reservation plan (which writes them) and key usage
// (which reads them back). Every call adds to three families per window (lifetime, day, week, month):
//   key:<hash>:usage:<window>  non-BYOK spend (the wire's usage*)
//   key:<hash>:byok:<window>   BYOK spend (byok_usage*)
//   key:<hash>:total:<window>  both (what the limit checks when include_byok_in_limit is true)
// Keeping all of them, whatever the key's current settings, means changing limit, limit_reset or
// include_byok_in_limit mid-window takes effect against the spend already in that window.

import type { Clock } from '../domain/clock.ts'
import type { LimitedScope } from '../counters/spend-counters.ts'
import { windowAt } from './windows.ts'
import type { WindowPeriod } from './windows.ts'

export type KeySpendFamily = 'usage' | 'byok' | 'total'

/** A window of usage: one of the calendar periods, or the key's whole life. */
export type UsagePeriod = WindowPeriod | 'lifetime'

export const usagePeriods: readonly UsagePeriod[] = ['lifetime', 'daily', 'weekly', 'monthly']

/** Default time a windowed counter outlives its window, so late settlements still land in it. */
export const defaultTtlMarginSeconds = 24 * 60 * 60

/**
 * A scope for `baseId` in the window of `period` containing now: id `<baseId>:<window id>` (or
 * `<baseId>:lifetime`, never expiring), expiring `marginSeconds` after the window ends. Also the
 * hook for guardrail and workspace budgets with their own reset period.
 */
export function windowedScope(
  baseId: string,
  period: UsagePeriod,
  limitNano: bigint | null,
  clock: Clock,
  marginSeconds: number = defaultTtlMarginSeconds,
): LimitedScope {
  if (period === 'lifetime') return { id: `${baseId}:lifetime`, limitNano }
  const now = clock.now().getTime()
  const window = windowAt(period, now)
  return { id: `${baseId}:${window.id}`, limitNano, ttlSeconds: Math.ceil((window.end - now) / 1000) + marginSeconds }
}

export function keySpendBaseId(keyHash: string, family: KeySpendFamily): string {
  return `key:${keyHash}:${family}`
}

/** The id of a key's counter for one family and period at the clock's present instant. */
export function keySpendScopeId(keyHash: string, family: KeySpendFamily, period: UsagePeriod, clock: Clock): string {
  return windowedScope(keySpendBaseId(keyHash, family), period, null, clock).id
}
