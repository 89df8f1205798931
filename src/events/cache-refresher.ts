// Bounded staleness for the in-memory caches when several instances share a store: every
// `intervalMs` each cache is reloaded whole, so a change whose message was lost (a transport outage,
// an instance that was reconnecting) is picked up within one interval. A failed reload keeps the
// previous contents and is retried at the next tick.

export interface RefreshableCache {
  readonly name: string
  load(): Promise<void>
}

export class CacheRefresher {
  readonly #caches: readonly RefreshableCache[]
  readonly #intervalMs: number
  readonly #onError: (cache: string, error: unknown) => void
  #timer: NodeJS.Timeout | null = null
  #running: Promise<void> | null = null

  constructor(
    caches: readonly RefreshableCache[],
    intervalMs: number,
    onError: (cache: string, error: unknown) => void,
  ) {
    this.#caches = caches
    this.#intervalMs = intervalMs
    this.#onError = onError
  }

  start(): void {
    if (this.#timer !== null) return
    this.#timer = setInterval(() => {
      if (this.#running === null) this.#running = this.refreshAll().finally(() => (this.#running = null))
    }, this.#intervalMs)
    this.#timer.unref()
  }

  async refreshAll(): Promise<void> {
    for (const cache of this.#caches) {
      try {
        await cache.load()
      } catch (error) {
        this.#onError(cache.name, error)
      }
    }
  }

  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
    await this.#running
  }
}
