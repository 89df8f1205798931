// `npm run bench:listing [-- --rows 10000000 --stores sqlite,postgres --samples 100]`: page times of
// GET /api/v1/generations and GET /api/v1/activity on a store seeded with `--rows` generation records
// (default ten million) over 90 days, for each store. The store is seeded as an upgrade would find it
// and migrated (listing-store.ts), then the gateway serves it on a loopback socket and each query
// (listing-queries.ts) is timed `--samples` times after `--warmup` unmeasured ones; p50 and p99 per
// query are printed as a Markdown table (docs/performance.md, "Listing and activity at 10 million
// records"). The seeded store is deleted at the end unless `--keep`. PostgreSQL is
// `--postgres-url` (default TEST_DATABASE_URL), in a schema of its own that is dropped afterwards.
import { tmpdir, cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { createGateway } from '../src/gateway.ts'
import { systemClock } from '../src/domain/clock.ts'
import {
  benchAdminKey,
  describeInserts,
  prepareStore,
  withoutListingIndexes,
  type BenchEngine,
  type PreparedStore,
} from './listing-store.ts'
import type { InsertCost } from './listing-inserts.ts'
import { benchQueries, ListingClient, type QueryTiming } from './listing-queries.ts'

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000000' },
    stores: { type: 'string', default: 'sqlite,postgres' },
    samples: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '10' },
    days: { type: 'string', default: '90' },
    workspaces: { type: 'string', default: '20' },
    keys: { type: 'string', default: '200' },
    dir: { type: 'string', default: tmpdir() },
    'postgres-url': {
      type: 'string',
      default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
    inserts: { type: 'string', default: '5000' },
    keep: { type: 'boolean', default: false },
  },
})

const positive = (name: string, text: string | undefined): number => {
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1) throw new Error(`bench: --${name} takes a positive integer, not ${text}`)
  return value
}
const rows = positive('rows', values.rows)
const samples = positive('samples', values.samples)
const warmup = positive('warmup', values.warmup)
const days = positive('days', values.days)
const inserts = positive('inserts', values.inserts)
const stores = (values.stores ?? '').split(',').filter((name) => name !== '')
for (const name of stores)
  if (name !== 'sqlite' && name !== 'postgres')
    throw new Error(`bench: --stores takes sqlite and/or postgres, not ${name}`)

const log = (line: string) => console.log(line)
const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1)

async function measure(engine: BenchEngine, prepared: PreparedStore, endMs: number): Promise<QueryTiming[]> {
  const gateway = await createGateway({ config: prepared.config, clock: systemClock })
  try {
    const baseUrl = await gateway.app.fastify.listen({ host: '127.0.0.1', port: 0 })
    const client = new ListingClient(baseUrl)
    try {
      const queries = await benchQueries(client, benchAdminKey, prepared.keys, endMs, days)
      const timings: QueryTiming[] = []
      for (const query of queries) {
        const timing = await client.time(query, samples, warmup)
        log(`  ${engine} ${timing.name}: ${timing.items} items, p50 ${ms(timing.p50)} ms, p99 ${ms(timing.p99)} ms`)
        timings.push(timing)
      }
      return timings
    } finally {
      await client.close()
    }
  } finally {
    await gateway.close()
  }
}

interface StoreResult {
  readonly engine: BenchEngine
  readonly prepared: PreparedStore
  readonly timings: QueryTiming[]
  readonly insertsWithout: InsertCost
}

function report(results: readonly StoreResult[]): void {
  const date = new Date().toISOString().slice(0, 10)
  log(`\n${date}, ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${rows.toLocaleString('en-US')} records`)
  for (const { engine, prepared, insertsWithout } of results)
    log(
      `${engine}: seeded in ${prepared.seedSeconds.toFixed(0)} s, migrated (listing indexes, activity backfill) in ${prepared.migrateSeconds.toFixed(0)} s, ${(prepared.bytes / 2 ** 30).toFixed(2)} GiB; writes (with their daily activity sums) with the listing indexes: ${describeInserts(prepared.insertsWith)}, without them: ${describeInserts(insertsWithout)}`,
    )
  log(`\n| query | items | ${results.map((result) => `${result.engine} p50 / p99 (ms)`).join(' | ')} |`)
  log(`|---|---|${results.map(() => '---|').join('')}`)
  const first = results[0]
  if (first === undefined) return
  first.timings.forEach((timing, index) => {
    const cells = results.map((result) => {
      const other = result.timings[index]!
      return `${ms(other.p50)} / ${ms(other.p99)}`
    })
    log(`| ${timing.name} | ${timing.items} | ${cells.join(' | ')} |`)
  })
}

const endMs = Date.now()
const results: StoreResult[] = []
for (const engine of stores as BenchEngine[]) {
  log(`${engine}: seeding ${rows.toLocaleString('en-US')} generation records`)
  const prepared = await prepareStore({
    engine,
    rows,
    days,
    workspaces: positive('workspaces', values.workspaces),
    keys: positive('keys', values.keys),
    directory: values.dir ?? tmpdir(),
    postgresUrl: values['postgres-url'] ?? '',
    endMs,
    inserts,
    log,
  })
  try {
    const timings = await measure(engine, prepared, endMs)
    log(`  ${engine}: dropping the listing indexes to measure writes without them`)
    const insertsWithout = await withoutListingIndexes(prepared, inserts)
    log(`  ${engine}: ${describeInserts(insertsWithout)} without them`)
    results.push({ engine, prepared, timings, insertsWithout })
  } finally {
    if (values.keep) log(`  kept the ${engine} store: ${prepared.config.store.database_url}`)
    else await prepared.dispose()
  }
}
report(results)
