// Starts the real gateway (same composition as `npm start`) on a fresh store for one test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LightMyRequestResponse, InjectOptions } from 'fastify'
import type { Logger } from 'pino'
import { loadConfig } from '../../src/config/load-config.ts'
import { createGateway, type Gateway } from '../../src/gateway.ts'
import type { Clock } from '../../src/domain/clock.ts'
import { systemClock } from '../../src/domain/clock.ts'
import { createSqliteDatabase, createPostgresDatabase, type TestDatabase } from './test-store.ts'

export const testAdminKey = 'sk-sy-v1-test-admin-0000000000000000000000000000000000000000000000'

export interface TestGateway {
  readonly gateway: Gateway
  readonly database: TestDatabase
  readonly adminKey: string
  inject(options: InjectOptions): Promise<LightMyRequestResponse>
  /** Listens on 127.0.0.1 and returns the base URL (http://127.0.0.1:PORT). */
  listen(): Promise<string>
  close(): Promise<void>
}

export interface TestGatewayOptions {
  readonly yaml?: string
  readonly env?: Record<string, string>
  readonly clock?: Clock
  /** PostgreSQL base URL; SQLite when absent. */
  readonly postgresUrl?: string
  /** Reuse this DATABASE_URL (e.g. another test gateway's `database.url`) instead of a fresh store; its owner disposes it. */
  readonly databaseUrl?: string
  /** Redis key prefix of the spend counters (with REDIS_URL in `env`). */
  readonly redisKeyPrefix?: string
  /** Periodic whole-cache reload interval across instances (GatewayOptions.cacheRefreshMs). */
  readonly cacheRefreshMs?: number
  /** A logger to use instead of the silent default (tests that read what was logged). */
  readonly logger?: Logger
}

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const database =
    options.databaseUrl !== undefined
      ? reuseDatabase(options.databaseUrl)
      : options.postgresUrl === undefined
        ? createSqliteDatabase()
        : createPostgresDatabase(options.postgresUrl)
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    SWITCHYARD_ADMIN_KEY: testAdminKey,
    LOG_LEVEL: 'silent',
    ...options.env,
  }
  if (options.yaml !== undefined) {
    const path = join(database.directory, 'switchyard.yaml')
    writeFileSync(path, options.yaml)
    env.SWITCHYARD_CONFIG = path
  }
  const config = loadConfig({ env, cwd: database.directory })
  const gateway = await createGateway({
    config,
    clock: options.clock ?? systemClock,
    ...(options.redisKeyPrefix === undefined ? {} : { redisKeyPrefix: options.redisKeyPrefix }),
    ...(options.cacheRefreshMs === undefined ? {} : { cacheRefreshMs: options.cacheRefreshMs }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  })
  return {
    gateway,
    database,
    adminKey: testAdminKey,
    inject: (request) => gateway.app.fastify.inject(request),
    listen: () => gateway.app.fastify.listen({ host: '127.0.0.1', port: 0 }),
    close: async () => {
      await gateway.close()
      await database.dispose()
    },
  }
}

function reuseDatabase(url: string): TestDatabase {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-test-'))
  return { url, sqlitePath: null, directory, dispose: async () => rmSync(directory, { recursive: true, force: true }) }
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` }
}
