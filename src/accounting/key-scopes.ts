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
import type { CalendarWindow, WindowPeriod } from './windows.ts'

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
  return { id: `${baseId}:${window.id}`, limitNano, ttlSeconds: ttlSecondsAt(window, now, marginSeconds) }
}

/** A key's counter in one family and period at `now` (epoch ms): `key:<hash>:<family>:<window id>`. */
export function keySpendScope(
  keyHash: string,
  family: KeySpendFamily,
  period: UsagePeriod,
  limitNano: bigint | null,
  now: number,
  marginSeconds: number = defaultTtlMarginSeconds,
): LimitedScope {
  if (period === 'lifetime') return { id: keySpendId(keyHash, family, period, 'lifetime'), limitNano }
  const window = windowAt(period, now)
  return {
    id: keySpendId(keyHash, family, period, window.id),
    limitNano,
    ttlSeconds: ttlSecondsAt(window, now, marginSeconds),
  }
}

function keySpendBaseId(keyHash: string, family: KeySpendFamily): string {
  return `key:${keyHash}:${family}`
}

/** The id of a key's counter for one family and period at the clock's present instant. */
export function keySpendScopeId(keyHash: string, family: KeySpendFamily, period: UsagePeriod, clock: Clock): string {
  return keySpendScope(keyHash, family, period, null, clock.now().getTime()).id
}

function ttlSecondsAt(window: CalendarWindow, now: number, marginSeconds: number): number {
  return Math.ceil((window.end - now) / 1000) + marginSeconds
}

/**
 * Ids of key counters, made once per key, family and window and then reused: every call reserves on
 * eight of them, and the counters look each up in a Map (or send it to Redis). A string that is reused
 * keeps its hash; a fresh ~90-character id per scope per call was built and hashed anew every time.
 * Bounded by forgetting every key at once past `cachedKeysLimit` keys.
 */
const cachedIds = new Map<string, CachedId[]>()
const cachedKeysLimit = 10_000
const familySlot: Record<KeySpendFamily, number> = { usage: 0, byok: 1, total: 2 }
const periodSlot: Record<UsagePeriod, number> = { lifetime: 0, daily: 1, weekly: 2, monthly: 3 }

interface CachedId {
  readonly windowId: string
  readonly id: string
}

function keySpendId(keyHash: string, family: KeySpendFamily, period: UsagePeriod, windowId: string): string {
  let slots = cachedIds.get(keyHash)
  if (slots === undefined) {
    if (cachedIds.size >= cachedKeysLimit) cachedIds.clear()
    slots = []
    cachedIds.set(keyHash, slots)
  }
  const slot = familySlot[family] * usagePeriods.length + periodSlot[period]
  const cached = slots[slot]
  if (cached !== undefined && cached.windowId === windowId) return cached.id
  const id = `${keySpendBaseId(keyHash, family)}:${windowId}`
  slots[slot] = { windowId, id }
  return id
}
