// Time is injected so windows, expiries and retention can be tested at any instant.
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }
