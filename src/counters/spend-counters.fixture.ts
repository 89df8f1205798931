// What the contract and property suites need to run against any SpendCounters engine: a factory
// that builds counters on a manual clock, and a wrapper that cleans up after each use.

import { ManualClock } from '../../test/support/manual-clock.ts'
import type { Clock } from '../domain/clock.ts'
import type { SpendCounters } from './spend-counters.ts'

export interface SpendCountersFactoryOptions {
  readonly clock: Clock
  readonly leaseMs: number
  readonly retentionMs: number
}

export interface SpendCountersUnderTest {
  readonly counters: SpendCounters
  /** Removes what the engine stored for this instance. */
  close(): Promise<void>
}

export type SpendCountersFactory = (options: SpendCountersFactoryOptions) => Promise<SpendCountersUnderTest>

export const fixtureLeaseMs = 15 * 60_000
export const fixtureRetentionMs = 24 * 60 * 60_000

/** Gives each test fresh counters on a manual clock and cleans up after it. */
export async function withCounters(
  factory: SpendCountersFactory,
  body: (counters: SpendCounters, clock: ManualClock) => Promise<void>,
): Promise<void> {
  const clock = new ManualClock('2026-11-22T12:00:00.000Z')
  const { counters, close } = await factory({ clock, leaseMs: fixtureLeaseMs, retentionMs: fixtureRetentionMs })
  try {
    await body(counters, clock)
  } finally {
    await close()
  }
}
