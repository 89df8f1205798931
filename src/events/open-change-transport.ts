// Chooses how changes reach the other instances: Redis pub/sub when REDIS_URL is set, else PostgreSQL
// LISTEN/NOTIFY when the store is PostgreSQL, else none (a single node: SQLite is one process's store).
import { randomUUID } from 'node:crypto'
import type { ChangeBus } from './change-bus.ts'
import { startRedisChangeTransport } from './redis-change-transport.ts'
import { startPostgresChangeTransport } from './postgres-change-transport.ts'

export type ChangeTransportKind = 'redis' | 'postgres' | 'none'

export interface ChangeTransport {
  readonly kind: ChangeTransportKind
  close(): Promise<void>
}

export interface OpenChangeTransportOptions {
  readonly bus: ChangeBus
  readonly redisUrl: string | null
  readonly databaseUrl: string
  /** PostgreSQL schema of the store (instances on one schema share a channel). */
  readonly schema: string | null
  /** Redis key prefix shared by the instances of one deployment (tests isolate themselves with it). */
  readonly redisKeyPrefix?: string
  readonly onError: (error: unknown) => void
}

export async function openChangeTransport(options: OpenChangeTransportOptions): Promise<ChangeTransport> {
  const instanceId = randomUUID()
  if (options.redisUrl !== null) {
    const channel = `${options.redisKeyPrefix ?? '{switchyard}:'}changes`
    return startRedisChangeTransport({
      url: options.redisUrl,
      channel,
      instanceId,
      bus: options.bus,
      onError: options.onError,
    })
  }
  if (/^postgres(?:ql)?:\/\//.test(options.databaseUrl)) {
    const channel = options.schema === null ? 'switchyard_changes' : `switchyard_changes_${options.schema}`.slice(0, 63)
    return startPostgresChangeTransport({
      url: options.databaseUrl,
      channel,
      instanceId,
      bus: options.bus,
      onError: options.onError,
    })
  }
  return { kind: 'none', close: async () => undefined }
}
