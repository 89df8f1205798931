// A clock that moves only when a test moves it, so leases and windows never depend on real time.

import type { Clock } from '../../src/domain/clock.ts'

export class ManualClock implements Clock {
  #now: number

  constructor(start: number | string) {
    this.#now = typeof start === 'number' ? start : Date.parse(start)
  }

  now(): Date {
    return new Date(this.#now)
  }

  advance(ms: number): void {
    this.#now += ms
  }

  set(at: number | string): void {
    this.#now = typeof at === 'number' ? at : Date.parse(at)
  }
}
