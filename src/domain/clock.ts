// The time source, injected wherever time decides something (windows, leases) so tests control it.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }
