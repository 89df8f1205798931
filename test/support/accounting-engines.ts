// The stores and spend counters the accounting property suites run on, as the gateway can be deployed:
// SQLite with in-memory counters, SQLite with Redis, PostgreSQL with Redis (the services' suites skip
// without TEST_DATABASE_URL / TEST_REDIS_URL, and fail under CI=true). Redis clients made here are
// closed by `closeEngineClients`.
import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'
import type { Clock } from '../../src/domain/clock.ts'
import { MemorySpendCounters } from '../../src/counters/memory-spend-counters.ts'
import { RedisSpendCounters } from '../../src/counters/redis-spend-counters.ts'
import type { SpendCounters } from '../../src/counters/spend-counters.ts'
import { postgresTarget, redisTarget } from './test-services.ts'
import { createPostgresDatabase, createSqliteDatabase, type TestDatabase } from './test-store.ts'

export interface AccountingEngine {
  readonly name: string
  /** node:test's `skip`: false, or why the engine's services are missing. */
  readonly skip: string | false
  database(): TestDatabase
  counters(clock: Clock): SpendCounters
}

const clients: Redis[] = []
const redis = redisTarget()
const postgres = postgresTarget()

function redisCounters(clock: Clock): SpendCounters {
  const client = new Redis(redis.url!, { maxRetriesPerRequest: 1 })
  clients.push(client)
  return new RedisSpendCounters(client, clock, { keyPrefix: `{switchyard-test:${randomUUID()}}:` })
}

export const accountingEngines: readonly AccountingEngine[] = [
  {
    name: 'SQLite and memory counters',
    skip: false,
    database: createSqliteDatabase,
    counters: (clock) => new MemorySpendCounters(clock),
  },
  { name: 'SQLite and Redis', skip: redis.skip, database: createSqliteDatabase, counters: redisCounters },
  {
    name: 'PostgreSQL and Redis',
    skip: postgres.skip || redis.skip,
    database: () => createPostgresDatabase(postgres.url!),
    counters: redisCounters,
  },
]

export async function closeEngineClients(): Promise<void> {
  await Promise.all(clients.splice(0).map((client) => client.quit().catch(() => undefined)))
}
