// Calendar spending windows, computed from the clock rather than by reset jobs: daily from 00:00 UTC,
// weekly from Monday 00:00 UTC, monthly from the 1st 00:00 UTC. A window's id names it stably
// (`d:2026-11-22`, `w:2026-11-16` (its Monday), `m:2026-11`), so counters keyed by it roll over by id.

import type { Clock } from '../domain/clock.ts'
import { isoDay } from '../domain/iso-time.ts'

export type WindowPeriod = 'daily' | 'weekly' | 'monthly'

export interface CalendarWindow {
  readonly period: WindowPeriod
  readonly id: string
  /** Epoch ms of the window's first instant (inclusive). */
  readonly start: number
  /** Epoch ms of the next reset: the first instant of the next window (exclusive). */
  readonly end: number
}

const DAY_MS = 86_400_000

function dayStart(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS) * DAY_MS
}

const windowAtTable: Record<WindowPeriod, (epochMs: number) => CalendarWindow> = {
  daily: (epochMs) => {
    const start = dayStart(epochMs)
    return { period: 'daily', id: `d:${isoDay(start)}`, start, end: start + DAY_MS }
  },
  weekly: (epochMs) => {
    const today = dayStart(epochMs)
    const daysSinceMonday = (new Date(today).getUTCDay() + 6) % 7
    const start = today - daysSinceMonday * DAY_MS
    return { period: 'weekly', id: `w:${isoDay(start)}`, start, end: start + 7 * DAY_MS }
  },
  monthly: (epochMs) => {
    const date = new Date(epochMs)
    const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)
    const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)
    return { period: 'monthly', id: `m:${isoDay(start).slice(0, 7)}`, start, end }
  },
}

/** The last window computed per period: every request asks for the window it falls in, almost always the same one. */
const lastWindows: Record<WindowPeriod, CalendarWindow | null> = { daily: null, weekly: null, monthly: null }

/** The window of `period` that contains the instant `epochMs`. */
export function windowAt(period: WindowPeriod, epochMs: number): CalendarWindow {
  if (!Number.isFinite(epochMs)) throw new RangeError(`windowAt takes a finite epoch time, got ${epochMs}`)
  const last = lastWindows[period]
  if (last !== null && epochMs >= last.start && epochMs < last.end) return last
  const window = windowAtTable[period](epochMs)
  lastWindows[period] = window
  return window
}

/** The window of `period` that contains the clock's present instant. */
export function currentWindow(period: WindowPeriod, clock: Clock): CalendarWindow {
  return windowAt(period, clock.now().getTime())
}
