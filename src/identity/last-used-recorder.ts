// Collects "key used at" marks in memory and writes them in one transaction every few seconds, so
// authentication never writes to the store on the request path.
import type { Clock } from '../domain/clock.ts'
import type { ApiKeysRepository } from '../store/repositories/api-keys-repository.ts'
import { isoTime } from '../domain/iso-time.ts'

export class LastUsedRecorder {
  #pending = new Map<string, string>()
  #timer: NodeJS.Timeout | null = null
  readonly #repository: ApiKeysRepository
  readonly #clock: Clock
  readonly #onError: (error: unknown) => void

  constructor(repository: ApiKeysRepository, clock: Clock, onError: (error: unknown) => void) {
    this.#repository = repository
    this.#clock = clock
    this.#onError = onError
  }

  start(intervalMs = 5000): void {
    this.#timer = setInterval(() => void this.flush(), intervalMs)
    this.#timer.unref()
  }

  mark(hash: string): void {
    this.#pending.set(hash, isoTime(this.#clock.now().getTime()))
  }

  async flush(): Promise<void> {
    if (this.#pending.size === 0) return
    const batch = this.#pending
    this.#pending = new Map()
    try {
      await this.#repository.touchLastUsed(batch)
    } catch (error) {
      this.#onError(error)
    }
  }

  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
    await this.flush()
  }
}
