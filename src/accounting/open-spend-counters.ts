// Chooses the spend counters engine: Redis (shared by every instance) when `store.redis_url` is set,
// memory (this process only) otherwise. With memory counters, totals are rebuilt from the ledger at
// start, since a restart would otherwise forget them.
import { Redis } from 'ioredis'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import type { SpendCounters } from '../counters/spend-counters.ts'
import { MemorySpendCounters } from '../counters/memory-spend-counters.ts'
import { RedisSpendCounters } from '../counters/redis-spend-counters.ts'

export interface OpenedSpendCounters {
  readonly counters: SpendCounters
  readonly engine: 'memory' | 'redis'
  close(): Promise<void>
}

export interface OpenSpendCountersOptions {
  /** Redis key prefix (tests isolate themselves with a unique one); keep a `{hash tag}` in it. */
  readonly redisKeyPrefix?: string
}

export function openSpendCounters(
  config: Config,
  clock: Clock,
  options: OpenSpendCountersOptions = {},
): OpenedSpendCounters {
  const url = config.store.redis_url
  if (url === null) return { counters: new MemorySpendCounters(clock), engine: 'memory', close: async () => undefined }
  const client = new Redis(url, { maxRetriesPerRequest: 1 })
  // Errors surface on the next command as `unavailable`; keep the client's own events from crashing the process.
  client.on('error', () => undefined)
  const counters = new RedisSpendCounters(
    client,
    clock,
    options.redisKeyPrefix === undefined ? {} : { keyPrefix: options.redisKeyPrefix },
  )
  return {
    counters,
    engine: 'redis',
    close: async () => {
      await client.quit().catch(() => client.disconnect())
    },
  }
}
