// Chooses the response cache's store: Redis (shared by every instance) when `store.redis_url` is set,
// this process's memory otherwise. Commands wait at most a second, so an outage is a miss, not a stall.
import { Redis } from 'ioredis'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import { MemoryResponseCacheStore } from './memory-response-cache-store.ts'
import { RedisResponseCacheStore } from './redis-response-cache-store.ts'
import type { ResponseCacheStore } from './response-cache-store.ts'

const commandTimeoutMs = 1_000

export function openResponseCacheStore(
  config: Config,
  clock: Clock,
  options: { readonly redisKeyPrefix?: string } = {},
): ResponseCacheStore {
  const url = config.store.redis_url
  if (url === null) {
    const bounds = { maxEntries: config.cache.memory_max_entries, maxBytes: config.cache.memory_max_bytes }
    return new MemoryResponseCacheStore(bounds, clock)
  }
  const client = new Redis(url, { maxRetriesPerRequest: 0, commandTimeout: commandTimeoutMs })
  client.on('error', () => undefined)
  return new RedisResponseCacheStore(client, `${options.redisKeyPrefix ?? 'switchyard:'}response-cache:`)
}
