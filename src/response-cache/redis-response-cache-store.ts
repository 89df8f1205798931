// The response cache shared by every instance: one Redis string per entry, expired by Redis itself
// (SET ... PX), under the gateway's key prefix.
import type { Redis } from 'ioredis'
import type { ResponseCacheStore } from './response-cache-store.ts'

export class RedisResponseCacheStore implements ResponseCacheStore {
  readonly engine = 'redis'

  constructor(
    readonly client: Redis,
    readonly keyPrefix: string,
  ) {}

  get(key: string): Promise<string | null> {
    return this.client.get(this.keyPrefix + key)
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.client.set(this.keyPrefix + key, value, 'PX', ttlSeconds * 1000)
  }

  size(): null {
    return null
  }

  async close(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect())
  }
}
