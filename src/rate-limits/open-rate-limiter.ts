// Chooses the rate limiter engine: Redis (shared by every instance) when `store.redis_url` is set,
// memory (this process only) otherwise. A command waits at most `commandTimeoutMs` (also while the
// client is still connecting or reconnecting), so an outage is reported quickly (and the policy lets
// requests through) instead of stalling them, and a slow first connection is not mistaken for one.
import { Redis } from 'ioredis'
import type { Config } from '../config/config.ts'
import type { Clock } from '../domain/clock.ts'
import { MemoryRateLimiter } from './memory-rate-limiter.ts'
import { RedisRateLimiter } from './redis-rate-limiter.ts'
import type { RateLimiter } from './rate-limiter.ts'

export interface OpenedRateLimiter {
  readonly limiter: RateLimiter
  readonly engine: 'memory' | 'redis'
  close(): Promise<void>
}

const readyWaitMs = 2_000
const commandTimeoutMs = 1_000

export async function openRateLimiter(
  config: Config,
  clock: Clock,
  options: { readonly redisKeyPrefix?: string } = {},
): Promise<OpenedRateLimiter> {
  const url = config.store.redis_url
  if (url === null) return { limiter: new MemoryRateLimiter(clock), engine: 'memory', close: async () => undefined }
  const client = new Redis(url, { maxRetriesPerRequest: 0, commandTimeout: commandTimeoutMs })
  client.on('error', () => undefined)
  await waitForReady(client)
  const keyPrefix = options.redisKeyPrefix === undefined ? undefined : `${options.redisKeyPrefix}rate:`
  return {
    limiter: new RedisRateLimiter(client, clock, keyPrefix === undefined ? {} : { keyPrefix }),
    engine: 'redis',
    close: async () => {
      await client.quit().catch(() => client.disconnect())
    },
  }
}

/** Gives the first connection a moment, so a starting instance does not count its first requests as outages. */
async function waitForReady(client: Redis): Promise<void> {
  if (client.status === 'ready') return
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, readyWaitMs)
    timer.unref()
    client.once('ready', done)
    function done(): void {
      clearTimeout(timer)
      client.off('ready', done)
      resolve()
    }
  })
}
