// Per-endpoint health: after `failureThreshold` consecutive failures an endpoint is skipped for
// `cooldownMs` (open), even when it is the only one; then one probe is let through (half-open): a
// success closes the breaker, a failure opens it again.
import type { Clock } from '../../domain/clock.ts'

export type BreakerState = 'closed' | 'open' | 'half-open'

interface Health {
  failures: number
  openedAt: number | null
  probing: boolean
}

export interface BreakerOptions {
  readonly failureThreshold: number
  readonly cooldownMs: number
}

export class CircuitBreaker {
  readonly #health = new Map<string, Health>()
  readonly #clock: Clock
  readonly #options: BreakerOptions

  constructor(clock: Clock, options: BreakerOptions = { failureThreshold: 5, cooldownMs: 30_000 }) {
    this.#clock = clock
    this.#options = options
  }

  state(endpointId: string): BreakerState {
    const health = this.#health.get(endpointId)
    if (health === undefined || health.openedAt === null) return 'closed'
    return this.#clock.now().getTime() - health.openedAt >= this.#options.cooldownMs ? 'half-open' : 'open'
  }

  /** Whether a request may go to the endpoint now; in half-open state only one probe at a time. */
  tryAcquire(endpointId: string): boolean {
    const state = this.state(endpointId)
    if (state === 'closed') return true
    if (state === 'open') return false
    const health = this.#health.get(endpointId)!
    if (health.probing) return false
    health.probing = true
    return true
  }

  /** Ends an acquired request that says nothing of the endpoint's health (nothing was sent to it). */
  release(endpointId: string): void {
    const health = this.#health.get(endpointId)
    if (health !== undefined) health.probing = false
  }

  recordSuccess(endpointId: string): void {
    this.#health.delete(endpointId)
  }

  recordFailure(endpointId: string): void {
    const health = this.#health.get(endpointId) ?? { failures: 0, openedAt: null, probing: false }
    health.failures += 1
    const wasProbing = health.probing
    health.probing = false
    if (wasProbing || health.failures >= this.#options.failureThreshold) health.openedAt = this.#clock.now().getTime()
    this.#health.set(endpointId, health)
  }

  /** States of every endpoint that is not closed, for metrics. */
  snapshot(): Record<string, BreakerState> {
    const result: Record<string, BreakerState> = {}
    for (const id of this.#health.keys()) {
      const state = this.state(id)
      if (state !== 'closed') result[id] = state
    }
    return result
  }
}
