// Where cached answers live: this process's memory, or Redis shared by every instance. An entry is an
// opaque text under a hashed key, kept for its TTL (seconds).
export interface ResponseCacheStore {
  readonly engine: 'memory' | 'redis'
  get(key: string): Promise<string | null>
  set(key: string, value: string, ttlSeconds: number): Promise<void>
  /** Entries and bytes held, when this store can tell (memory); null for Redis. */
  size(): { readonly entries: number; readonly bytes: number } | null
  close(): Promise<void>
}
