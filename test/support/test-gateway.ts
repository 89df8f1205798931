// Starts the real gateway (same composition as `npm start`) on a fresh store for one test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LightMyRequestResponse, InjectOptions } from 'fastify'
import type { Logger } from 'pino'
import type { Config } from '../../src/config/config.ts'
import { loadConfig } from '../../src/config/load-config.ts'
import { loadMasterKey } from '../../src/vault/master-key.ts'
import { SecretBox } from '../../src/vault/secret-box.ts'
import { assembleGateway, type Gateway } from '../../src/gateway.ts'
import type { GatewayParts } from '../../src/compose/gateway-parts.ts'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { GroupCommit } from '../../src/store/group-commit.ts'
import { GenerationStore, type StoredGeneration } from '../../src/generations/generation-store.ts'
import type { GenerationContent, GenerationRecord } from '../../src/generations/generation-record.ts'
import type { Clock } from '../../src/domain/clock.ts'
import { systemClock } from '../../src/domain/clock.ts'
import { createSqliteDatabase, createPostgresDatabase, type TestDatabase } from './test-store.ts'

export const testAdminKey = 'sk-sy-v1-test-admin-0000000000000000000000000000000000000000000000'

export interface TestGateway {
  /** The gateway as its users get it (app, bootstrap result, close). */
  readonly gateway: Gateway
  /**
   * The parts the gateway was assembled from, for assertions on state the API does not show (a worker's
   * progress, what a cache holds). Prefer the HTTP API and `store`.
   */
  readonly internals: GatewayParts
  /** The test's own connection to the gateway's database (opened on first use), to arrange and read rows. */
  readonly store: Store
  /** A box under the operator's master key (SWITCHYARD_MASTER_KEY or the data directory's), to open what was sealed. */
  readonly secretBox: SecretBox
  /** A generation's record and content as stored, read through the test's own connection. */
  findGeneration(id: string): Promise<StoredGeneration | undefined>
  /** Stores generation records (content null for none) through the test's own connection, as the gateway would have. */
  storeGenerations(entries: readonly { record: GenerationRecord; content: GenerationContent | null }[]): Promise<void>
  /** The generation store over the test's own connection (what a sweep or a reader sees of the stored records). */
  readonly generations: GenerationStore
  readonly database: TestDatabase
  readonly adminKey: string
  inject(options: InjectOptions): Promise<LightMyRequestResponse>
  /** Gateway.drained(): accepted writes are durable, changes have propagated, finished generations' broadcasts are queued. */
  drained(): Promise<void>
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
  const { gateway, parts } = await assembleGateway({
    config,
    clock: options.clock ?? systemClock,
    ...(options.redisKeyPrefix === undefined ? {} : { redisKeyPrefix: options.redisKeyPrefix }),
    ...(options.cacheRefreshMs === undefined ? {} : { cacheRefreshMs: options.cacheRefreshMs }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  })
  return new RunningTestGateway(gateway, parts, database, config)
}

/** A test gateway over an assembled gateway; close() also closes the test's connection and disposes the database. */
export class RunningTestGateway implements TestGateway {
  readonly adminKey = testAdminKey
  readonly gateway: Gateway
  #store: Store | null = null
  #generations: { store: GenerationStore; commits: GroupCommit } | null = null

  constructor(
    gateway: Gateway,
    readonly internals: GatewayParts,
    readonly database: TestDatabase,
    private readonly config: Config,
  ) {
    // Tests that restart on the same database stop the gateway alone: the test's connection stops with it.
    this.gateway = {
      ...gateway,
      close: async () => {
        await gateway.close()
        await this.#closeStore()
      },
    }
  }

  get store(): Store {
    this.#store ??= openStore(this.database.url)
    return this.#store
  }

  get secretBox(): SecretBox {
    return new SecretBox(loadMasterKey(this.config.secrets.master_key, this.config.store.data_dir).key)
  }

  get generations(): GenerationStore {
    return this.#generationWrites().store
  }

  async storeGenerations(
    entries: readonly { record: GenerationRecord; content: GenerationContent | null }[],
  ): Promise<void> {
    const { store, commits } = this.#generationWrites()
    for (const { record, content } of entries) store.add(record, content)
    await commits.durable()
  }

  #generationWrites(): { store: GenerationStore; commits: GroupCommit } {
    if (this.#generations === null) {
      // A failed commit rejects durable(), which storeGenerations awaits.
      const commits = new GroupCommit(this.store.writes, { onError: () => undefined })
      this.#generations = { store: new GenerationStore(this.store.db, commits), commits }
    }
    return this.#generations
  }

  findGeneration(id: string): Promise<StoredGeneration | undefined> {
    return this.generations.find(id)
  }

  inject(request: InjectOptions): Promise<LightMyRequestResponse> {
    return this.gateway.app.fastify.inject(request)
  }

  drained(): Promise<void> {
    return this.gateway.drained()
  }

  listen(): Promise<string> {
    return this.gateway.app.fastify.listen({ host: '127.0.0.1', port: 0 })
  }

  async close(): Promise<void> {
    await this.gateway.close()
    await this.database.dispose()
  }

  async #closeStore(): Promise<void> {
    const store = this.#store
    this.#store = null
    this.#generations = null
    await store?.close()
  }
}

function reuseDatabase(url: string): TestDatabase {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-test-'))
  return { url, sqlitePath: null, directory, dispose: async () => rmSync(directory, { recursive: true, force: true }) }
}

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` }
}
