// Several delivery workers on one store (as several gateway instances would run) deliver every record
// exactly once while leases hold; on SQLite and, with TEST_DATABASE_URL, PostgreSQL.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import pino from 'pino'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { DeliveryWorker } from '../../src/observability/delivery-worker.ts'
import { defaultDeliveryOptions } from '../../src/observability/delivery-options.ts'
import { createObservabilityDestinationsRepository } from '../../src/store/repositories/observability-destinations-repository.ts'
import { createObservabilityOutboxRepository } from '../../src/store/repositories/observability-outbox-repository.ts'
import { startRecordingServer } from './support/recording-server.ts'
import { sampleTrace } from './support/sample-trace.ts'
import { broadcast } from './support/broadcast.ts'

const postgres = postgresTarget()
const engines = [
  { name: 'sqlite', skip: false as const, url: undefined },
  { name: 'postgres', skip: postgres.skip, url: postgres.url },
]

for (const engine of engines) {
  describe(`outbox leases on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    before(async () => {
      // The gateway's own worker polls rarely here, so the test's workers do the delivering.
      const yaml =
        'egress:\n  allow_private_networks: true\nobservability:\n  delivery:\n    direct: false\n    poll_interval_ms: 3600000\n'
      gateway = await startTestGateway({ yaml, ...(engine.url === undefined ? {} : { postgresUrl: engine.url }) })
    })
    after(() => gateway.close())

    test('three workers deliver 60 records exactly once, and a replayed enqueue adds nothing', async () => {
      const receiver = await startRecordingServer()
      const workers: DeliveryWorker[] = []
      try {
        const created = await gateway.inject({
          method: 'POST',
          url: '/api/v1/observability/destinations',
          headers: bearer(gateway.adminKey),
          payload: { name: 'hook', type: 'webhook', config: { url: `${receiver.url}/hook` } },
        })
        assert.equal(created.statusCode, 201)
        const workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
        const traces = Array.from({ length: 60 }, (_, index) =>
          sampleTrace(workspaceId, { generationId: `gen-lease-${index}` }),
        )
        for (const trace of traces) assert.equal(await broadcast(gateway, trace), 1)
        assert.equal(await broadcast(gateway, traces[0]!), 0, 'replay of the same generation is not enqueued twice')

        const db = gateway.store.db
        for (let index = 0; index < 3; index += 1) {
          const worker = new DeliveryWorker({
            destinations: createObservabilityDestinationsRepository(db),
            outbox: createObservabilityOutboxRepository(db),
            secretBox: gateway.secretBox,
            clock: { now: () => new Date() },
            egress: { allowPrivateNetworks: true },
            logger: pino({ level: 'silent' }),
            options: { ...defaultDeliveryOptions, pollIntervalMs: 5, batchSize: 7, concurrencyPerDestination: 2 },
          })
          workers.push(worker)
          worker.start()
        }
        const deadline = Date.now() + 60_000
        while (Date.now() < deadline) {
          const row = await db
            .selectFrom('observability_destinations')
            .select('delivered_count')
            .where('id', '=', (created.json() as { data: { id: string } }).data.id)
            .executeTakeFirstOrThrow()
          if (Number(row.delivered_count) === 60) break
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        const ids = receiver.requests.map((request) => JSON.parse(request.body.toString('utf8')).id as string)
        assert.equal(ids.length, 60, 'every record delivered once')
        assert.equal(new Set(ids).size, 60, 'no record delivered twice')
        const left = await db
          .selectFrom('observability_outbox')
          .select((builder) => builder.fn.countAll<number | string>().as('count'))
          .executeTakeFirstOrThrow()
        assert.equal(Number(left.count), 0, 'delivered rows are deleted')
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()))
        await receiver.close()
      }
    })
  })
}
