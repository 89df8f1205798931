// Deletes stored generation content older than the retention period, hourly and at start.
import type { Clock } from '../domain/clock.ts'
import type { GenerationStore } from './generation-store.ts'

export class ContentRetention {
  #timer: NodeJS.Timeout | null = null
  readonly #store: GenerationStore
  readonly #clock: Clock
  readonly #retentionDays: number
  readonly #onError: (error: unknown) => void

  constructor(store: GenerationStore, clock: Clock, retentionDays: number, onError: (error: unknown) => void) {
    this.#store = store
    this.#clock = clock
    this.#retentionDays = retentionDays
    this.#onError = onError
  }

  start(intervalMs = 60 * 60 * 1000): void {
    void this.sweep()
    this.#timer = setInterval(() => void this.sweep(), intervalMs)
    this.#timer.unref()
  }

  async sweep(): Promise<number> {
    try {
      const cutoff = new Date(this.#clock.now().getTime() - this.#retentionDays * 24 * 60 * 60 * 1000).toISOString()
      return await this.#store.deleteContentBefore(cutoff)
    } catch (error) {
      this.#onError(error)
      return 0
    }
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
  }
}
