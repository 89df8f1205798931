// The single-node response cache: a Map in least-recently-used order (a hit moves an entry to the
// end), bounded by entries and by bytes (the oldest go first), each entry expiring by the injected
// clock.
import type { Clock } from '../domain/clock.ts'
import type { ResponseCacheStore } from './response-cache-store.ts'

interface Entry {
  readonly value: string
  readonly bytes: number
  readonly expiresAtMs: number
}

export interface MemoryBounds {
  readonly maxEntries: number
  readonly maxBytes: number
}

export class MemoryResponseCacheStore implements ResponseCacheStore {
  readonly engine = 'memory'
  readonly #entries = new Map<string, Entry>()
  #bytes = 0

  constructor(
    readonly bounds: MemoryBounds,
    readonly clock: Clock,
  ) {}

  async get(key: string): Promise<string | null> {
    const entry = this.#entries.get(key)
    if (entry === undefined) return null
    this.#entries.delete(key)
    if (entry.expiresAtMs <= this.clock.now().getTime()) {
      this.#bytes -= entry.bytes
      return null
    }
    this.#entries.set(key, entry)
    return entry.value
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    const bytes = Buffer.byteLength(value)
    if (bytes > this.bounds.maxBytes) return
    this.#remove(key)
    this.#entries.set(key, { value, bytes, expiresAtMs: this.clock.now().getTime() + ttlSeconds * 1000 })
    this.#bytes += bytes
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.bounds.maxEntries && this.#bytes <= this.bounds.maxBytes) break
      this.#remove(oldest)
    }
  }

  size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes }
  }

  async close(): Promise<void> {
    this.#entries.clear()
    this.#bytes = 0
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key)
    if (entry === undefined) return
    this.#entries.delete(key)
    this.#bytes -= entry.bytes
  }
}
