// Prepares a listing-benchmark store as an upgrade would find it, then upgrades it: the gateway starts
// once on a fresh store (migrations, bootstrap) and its management API creates the workspaces and keys;
// the store is then moved back to the migration before the listing indexes (0012) and the daily
// activity table (0014), seeded with set-based SQL (listing-seed.ts), and migrated to the latest
// version, which builds the listing indexes and sums the activity tables from the seeded records.
// `withoutListingMaintenance` then takes the listing indexes away again (after the queries are timed)
// so that writes can be measured without them on the same store (the daily activity sums are written
// by the group commit either way).
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { sql, type Kysely } from 'kysely'
import { loadConfig } from '../src/config/load-config.ts'
import type { Config } from '../src/config/config.ts'
import { createGateway, type Gateway } from '../src/gateway.ts'
import { systemClock } from '../src/domain/clock.ts'
import { openStore } from '../src/store/open-store.ts'
import { migrateStoreTo, migrateToLatest } from '../src/store/migrate.ts'
import { down as dropListingIndexes } from '../src/store/migrations/0012-generation-listing-indexes.ts'
import { measureInserts, type InsertCost } from './listing-inserts.ts'
import { seedPostgres, seedSqlite, type SeedKey } from './listing-seed.ts'

export const benchAdminKey = 'sk-sy-v1-bench-admin-00000000000000000000000000000000000000000000000'
const seedAtMigration = '0011-generation-unbilled-excess'

export type BenchEngine = 'sqlite' | 'postgres'

export interface BenchStoreOptions {
  readonly engine: BenchEngine
  readonly rows: number
  readonly days: number
  readonly workspaces: number
  readonly keys: number
  /** Directory for the SQLite file (and the gateway's data directory). */
  readonly directory: string
  readonly postgresUrl: string
  readonly endMs: number
  /** Records written through the group commit before and after the listing migrations (listing-inserts.ts). */
  readonly inserts: number
  readonly log: (line: string) => void
}

export interface BenchKey extends SeedKey {
  readonly plaintext: string
}

export interface PreparedStore {
  readonly config: Config
  readonly organizationId: string
  readonly keys: readonly BenchKey[]
  readonly seedSeconds: number
  readonly migrateSeconds: number
  readonly bytes: number
  /** Writes on the migrated store, with the listing indexes (and the daily activity sums). */
  readonly insertsWith: InsertCost
  dispose(): Promise<void>
}

export async function prepareStore(options: BenchStoreOptions): Promise<PreparedStore> {
  const directory = mkdtempSync(join(options.directory, `switchyard-listing-${options.engine}-`))
  const schema = `sy_bench_listing_${randomBytes(4).toString('hex')}`
  const sqlitePath = join(directory, 'listing.db')
  const url = options.engine === 'sqlite' ? `sqlite:${sqlitePath}` : withSchema(options.postgresUrl, schema)
  const config = loadConfig({
    env: { DATABASE_URL: url, SWITCHYARD_ADMIN_KEY: benchAdminKey, LOG_LEVEL: 'warn' },
    cwd: directory,
  })
  const dispose = async () => {
    if (options.engine === 'postgres') await dropSchema(options.postgresUrl, schema)
    rmSync(directory, { recursive: true, force: true })
  }
  try {
    const gateway = await createGateway({ config, clock: systemClock })
    const organizationId = gateway.bootstrap.organizationId
    const keys = await createKeys(gateway, options.workspaces, options.keys)
    await gateway.close()
    const store = openStore(url)
    await migrateStoreTo(store, seedAtMigration)
    await store.close()
    const plan = { rows: options.rows, organizationId, keys, endMs: options.endMs, days: options.days }
    const progress = (written: number) => options.log(`  seeded ${written.toLocaleString('en-US')} records`)
    let started = performance.now()
    if (options.engine === 'sqlite') seedSqlite(sqlitePath, { ...plan, progress })
    else await seedPostgres(options.postgresUrl, schema, { ...plan, progress })
    const seedSeconds = (performance.now() - started) / 1000
    options.log(`  seeded in ${seedSeconds.toFixed(0)} s; migrating`)
    started = performance.now()
    const upgraded = openStore(url)
    await migrateToLatest(upgraded)
    // PostgreSQL's autovacuum analyzes a table after 10% of it changed; the benchmark does not wait for it.
    if (options.engine === 'postgres') await sql`analyze`.execute(upgraded.db)
    const bytes =
      options.engine === 'sqlite' ? sqliteBytes(sqlitePath) : await postgresBytes(options.postgresUrl, schema)
    await upgraded.close()
    const migrateSeconds = (performance.now() - started) / 1000
    const insertsWith = await measureInserts(url, organizationId, keys, options.inserts)
    options.log(
      `  migrated in ${migrateSeconds.toFixed(0)} s; store ${(bytes / 2 ** 30).toFixed(2)} GiB; ${describeInserts(insertsWith)}`,
    )
    return {
      config,
      organizationId,
      keys,
      seedSeconds,
      migrateSeconds,
      bytes,
      insertsWith,
      dispose,
    }
  } catch (error) {
    await dispose()
    throw error
  }
}

/**
 * Drops the listing indexes (migration 0012's down: the workspace index before it comes back), then
 * measures `count` writes: what every write costs without them, on the same seeded store. The store
 * lists slowly afterwards.
 */
export async function withoutListingIndexes(prepared: PreparedStore, count: number): Promise<InsertCost> {
  const url = prepared.config.store.database_url
  const store = openStore(url)
  try {
    await dropListingIndexes(store.db as unknown as Kysely<unknown>)
  } finally {
    await store.close()
  }
  return measureInserts(url, prepared.organizationId, prepared.keys, count)
}

export const describeInserts = (cost: InsertCost) =>
  `${cost.recordsPerSecond.toFixed(0)} inserts/s, ${cost.cpuMicrosPerRecord.toFixed(0)} µs CPU per record`

function withSchema(baseUrl: string, schema: string): string {
  const url = new URL(baseUrl)
  url.searchParams.set('schema', schema)
  return url.toString()
}

async function createKeys(gateway: Gateway, workspaceCount: number, keyCount: number): Promise<BenchKey[]> {
  const workspaceIds = [gateway.bootstrap.defaultWorkspaceId]
  for (let index = 1; index < workspaceCount; index++) {
    const body = await post(gateway, '/api/v1/workspaces', { name: `Team ${index}`, slug: `team-${index}` })
    workspaceIds.push(body.data.id)
  }
  const keys: BenchKey[] = []
  for (let index = 0; index < keyCount; index++) {
    const workspaceId = workspaceIds[index % workspaceIds.length]!
    const body = await post(gateway, '/api/v1/keys', { name: `key ${index}`, workspace_id: workspaceId })
    keys.push({ hash: body.data.hash, workspaceId, plaintext: body.key })
  }
  return keys
}

interface Created {
  readonly key: string
  readonly data: { readonly id: string; readonly hash: string }
}

async function post(gateway: Gateway, url: string, payload: Record<string, unknown>): Promise<Created> {
  const response = await gateway.app.fastify.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${benchAdminKey}` },
    payload,
  })
  if (response.statusCode !== 201)
    throw new Error(`bench: POST ${url} answered ${response.statusCode}: ${response.body}`)
  return response.json<Created>()
}

function sqliteBytes(path: string): number {
  return [path, `${path}-wal`].filter((file) => existsSync(file)).reduce((sum, file) => sum + statSync(file).size, 0)
}

async function postgresBytes(baseUrl: string, schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: baseUrl })
  await client.connect()
  try {
    const result = await client.query<{ bytes: string }>(
      `select coalesce(sum(pg_total_relation_size(c.oid)), 0) as bytes from pg_class c
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`,
      [schema],
    )
    return Number(result.rows[0]?.bytes ?? 0)
  } finally {
    await client.end()
  }
}

async function dropSchema(baseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl })
  await client.connect()
  try {
    await client.query(`drop schema if exists ${schema} cascade`)
  } finally {
    await client.end()
  }
}
