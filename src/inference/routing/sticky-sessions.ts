// Remembers which endpoint served a session so its next request goes there too (the provider's prompt
// cache stays warm). Bounded: the oldest sessions are forgotten first; entries expire after a TTL.
import type { Clock } from '../../domain/clock.ts'

export class StickySessions {
  readonly #entries = new Map<string, { endpointId: string; at: number }>()
  readonly #clock: Clock
  readonly #ttlMs: number
  readonly #capacity: number

  constructor(clock: Clock, ttlMs = 60 * 60 * 1000, capacity = 100_000) {
    this.#clock = clock
    this.#ttlMs = ttlMs
    this.#capacity = capacity
  }

  get(sessionKey: string): string | undefined {
    const entry = this.#entries.get(sessionKey)
    if (entry === undefined) return undefined
    if (this.#clock.now().getTime() - entry.at > this.#ttlMs) {
      this.#entries.delete(sessionKey)
      return undefined
    }
    return entry.endpointId
  }

  remember(sessionKey: string, endpointId: string): void {
    this.#entries.delete(sessionKey)
    this.#entries.set(sessionKey, { endpointId, at: this.#clock.now().getTime() })
    if (this.#entries.size > this.#capacity) {
      const oldest = this.#entries.keys().next().value
      if (oldest !== undefined) this.#entries.delete(oldest)
    }
  }
}
