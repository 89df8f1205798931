// Starts the real gateway (same composition as `npm start`) on a fresh store for one test.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { LightMyRequestResponse, InjectOptions } from 'fastify'
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
}

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const database = options.postgresUrl === undefined ? createSqliteDatabase() : createPostgresDatabase(options.postgresUrl)
  const env: Record<string, string> = { DATABASE_URL: database.url, SWITCHYARD_ADMIN_KEY: testAdminKey, LOG_LEVEL: 'silent', ...options.env }
  if (options.yaml !== undefined) {
    const path = join(database.directory, 'switchyard.yaml')
    writeFileSync(path, options.yaml)
    env.SWITCHYARD_CONFIG = path
  }
  const config = loadConfig({ env, cwd: database.directory })
  const gateway = await createGateway({ config, clock: options.clock ?? systemClock })
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

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` }
}
