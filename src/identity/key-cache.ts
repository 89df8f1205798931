// API keys held in memory so authentication reads no store per request. Changes made through this
// instance are applied at once via the change bus. A key the cache has never seen (created on another
// instance) is looked up once; unknown hashes are remembered briefly so a flood of bad keys cannot
// reach the store.
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { Clock } from '../domain/clock.ts'
import type { ApiKeysRepository } from '../store/repositories/api-keys-repository.ts'
import type { ChangeBus } from '../events/change-bus.ts'

const negativeTtlMs = 1000
const negativeCapacity = 10_000

export class KeyCache {
  readonly #keys = new Map<string, ApiKeyRecord>()
  readonly #unknown = new Map<string, number>()
  readonly #pending = new Map<string, Promise<ApiKeyRecord | undefined>>()
  readonly #repository: ApiKeysRepository
  readonly #clock: Clock
  #hits = 0
  #misses = 0

  constructor(repository: ApiKeysRepository, clock: Clock, bus: ChangeBus) {
    this.#repository = repository
    this.#clock = clock
    bus.subscribe('api_key', (hash) => void this.refresh(hash))
  }

  async load(): Promise<void> {
    const keys = await this.#repository.list({ includeDisabled: true })
    this.#keys.clear()
    for (const key of keys) this.#keys.set(key.hash, key)
  }

  /** The cached key or, for a hash not yet seen, one store lookup shared by concurrent callers. */
  async lookup(hash: string): Promise<ApiKeyRecord | undefined> {
    const cached = this.#keys.get(hash)
    if (cached !== undefined) {
      this.#hits += 1
      return cached
    }
    this.#misses += 1
    const unknownSince = this.#unknown.get(hash)
    if (unknownSince !== undefined && this.#clock.now().getTime() - unknownSince < negativeTtlMs) return undefined
    const pending = this.#pending.get(hash)
    if (pending !== undefined) return pending
    const fetch = this.#fetch(hash).finally(() => this.#pending.delete(hash))
    this.#pending.set(hash, fetch)
    return fetch
  }

  /** Re-read one key after a change (the record is removed at once so a revoked key never passes). */
  async refresh(hash: string): Promise<void> {
    this.#keys.delete(hash)
    this.#unknown.delete(hash)
    await this.#fetch(hash)
  }

  set(key: ApiKeyRecord): void {
    this.#keys.set(key.hash, key)
    this.#unknown.delete(key.hash)
  }

  delete(hash: string): void {
    this.#keys.delete(hash)
  }

  get size(): number {
    return this.#keys.size
  }

  /** Lookups answered from memory and lookups that were not, since start (for metrics). */
  get lookups(): { readonly hits: number; readonly misses: number } {
    return { hits: this.#hits, misses: this.#misses }
  }

  async #fetch(hash: string): Promise<ApiKeyRecord | undefined> {
    const key = await this.#repository.findByHash(hash)
    if (key === undefined) {
      if (this.#unknown.size >= negativeCapacity) this.#unknown.clear()
      this.#unknown.set(hash, this.#clock.now().getTime())
      return undefined
    }
    this.#keys.set(hash, key)
    return key
  }
}
