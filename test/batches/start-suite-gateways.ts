// The gateways a core batch scenario runs on: one, or two sharing one store (two workers), with spend
// counters in Redis when the suite has it, and controls to stop and restart their batch workers.
import { randomUUID } from 'node:crypto'
import { startBatchFixture, type BatchFixture, type BatchFixtureOptions } from './batch-fixture.ts'
import type { CoreSuiteOptions } from './batch-core-suite.ts'

export interface SuiteGateways {
  readonly primary: BatchFixture
  stopWorkers(): Promise<void>
  startWorkers(): void
  close(): Promise<void>
}

export async function startSuiteGateways(
  suite: CoreSuiteOptions,
  given: BatchFixtureOptions = {},
): Promise<SuiteGateways> {
  const redis =
    suite.redisUrl === undefined ? undefined : { url: suite.redisUrl, keyPrefix: `batches-${randomUUID()}:` }
  const options = redis === undefined ? given : { ...given, redis }
  const primary = await startBatchFixture({ ...options, postgresUrl: suite.postgresUrl })
  const fixtures = [primary]
  if (suite.twoWorkers)
    fixtures.push(
      await startBatchFixture({
        ...options,
        upstream: primary.upstream,
        key: primary.key,
        databaseUrl: primary.gateway.database.url,
      }),
    )
  const workers = fixtures.map((fixture) => fixture.worker)
  const controls = {
    stopWorkers: async () => {
      await Promise.all(workers.map((worker) => worker.stop()))
    },
    startWorkers: () => workers.forEach((worker) => worker.start()),
  }
  const secondary = fixtures[1]
  if (secondary === undefined) return { primary, ...controls, close: () => primary.close() }
  return {
    primary,
    ...controls,
    close: async () => {
      await secondary.close({ keepStore: true })
      await primary.close()
    },
  }
}

/** Whether every gateway of the suite sees the same spend: one gateway, or several over Redis counters. */
export function sharesCounters(suite: CoreSuiteOptions): boolean {
  return !suite.twoWorkers || suite.redisUrl !== undefined
}
