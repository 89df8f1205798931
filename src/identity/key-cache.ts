// API keys held in memory so authentication reads no store per request. Changes made through this
// instance are applied at once via the change bus. A key the cache has never seen (created on another
// instance) is looked up once; unknown hashes are remembered briefly so a flood of bad keys cannot
// reach the store.
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { Clock } from '../domain/clock.ts'
import type { ApiKeysRepository } from '../store/repositories/api-keys-repository.ts'
import type { ChangeBus } from '../events/change-bus.ts'
import { InFlight } from '../events/in-flight.ts'

const negativeTtlMs = 1000
const negativeCapacity = 10_000

export class KeyCache {
  readonly #keys = new Map<string, ApiKeyRecord>()
  readonly #unknown = new Map<string, number>()
  readonly #pending = new Map<string, Promise<ApiKeyRecord | undefined>>()
  readonly #repository: ApiKeysRepository
  readonly #clock: Clock
  /** Hashes changed while a full load was reading, one set per load in flight. */
  readonly #loading = new Set<Set<string>>()
  /** Re-reads announced on the change bus and not yet applied. */
  readonly #refreshes = new InFlight()
  #hits = 0
  #misses = 0

  constructor(repository: ApiKeysRepository, clock: Clock, bus: ChangeBus) {
    this.#repository = repository
    this.#clock = clock
    // A failed re-read leaves the key out of the cache (refresh drops it first), so the next lookup asks
    // the store again and fails closed; it must not become an unhandled rejection.
    bus.subscribe('api_key', (hash) => this.#refreshes.track(this.refresh(hash)).catch(() => undefined))
  }

  /** Reads every key (at start, and periodically across instances); keys changed meanwhile keep their newer state. */
  async load(): Promise<void> {
    const changed = new Set<string>()
    this.#loading.add(changed)
    try {
      const keys = await this.#repository.list({ includeDisabled: true })
      const fresh = new Map(keys.map((key) => [key.hash, key]))
      for (const hash of changed) {
        const current = this.#keys.get(hash)
        if (current === undefined) fresh.delete(hash)
        else fresh.set(hash, current)
      }
      this.#keys.clear()
      for (const [hash, key] of fresh) this.#keys.set(hash, key)
    } finally {
      this.#loading.delete(changed)
    }
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
    this.#noteChange(hash)
    this.#keys.delete(hash)
    this.#unknown.delete(hash)
    await this.#fetch(hash)
  }

  /** Resolves once every change announced so far has been applied. */
  settled(): Promise<void> {
    return this.#refreshes.settled()
  }

  set(key: ApiKeyRecord): void {
    this.#noteChange(key.hash)
    this.#keys.set(key.hash, key)
    this.#unknown.delete(key.hash)
  }

  delete(hash: string): void {
    this.#noteChange(hash)
    this.#keys.delete(hash)
  }

  #noteChange(hash: string): void {
    for (const changed of this.#loading) changed.add(hash)
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
