// Direct delivery: fresh records go from memory to real local receivers without an outbox row; the
// outbox takes over for a failed record (one attempt counted, the destination cooling off), a slow one
// (written leased while in flight, then settled) and one still queued at shutdown. The gateway's own
// outbox poll runs once an hour here, so every delivery seen is the direct one.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import pino from 'pino'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { waitFor } from '../support/wait-for.ts'
import { DirectDelivery, type DirectDeliveryDeps } from '../../src/observability/direct-delivery.ts'
import { defaultDeliveryOptions } from '../../src/observability/delivery-options.ts'
import { decodeDestination, type Destination } from '../../src/observability/destination.ts'
import { buildDestinationRecord } from '../../src/observability/build-destination-record.ts'
import { createExporters } from '../../src/observability/exporters/exporter-registry.ts'
import {
  createObservabilityDestinationsRepository,
  deliveredCountsPlan,
} from '../../src/store/repositories/observability-destinations-repository.ts'
import { DeliveredCounts } from '../../src/observability/delivered-counts.ts'
import { GroupCommit } from '../../src/store/group-commit.ts'
import type { WriteBehind } from '../../src/store/write-behind.ts'
import { createObservabilityOutboxRepository } from '../../src/store/repositories/observability-outbox-repository.ts'
import { startRecordingServer } from './support/recording-server.ts'
import { decodeOtlpTraces } from './support/decode-otlp-traces.ts'
import { sampleTrace } from './support/sample-trace.ts'
import { broadcast } from './support/broadcast.ts'

const clock = { current: Date.parse('2026-03-04T06:00:00.000Z'), now: () => new Date(clock.current) }
let gateway: TestGateway
let workspaceId: string

before(async () => {
  const yaml =
    'egress:\n  allow_private_networks: true\nobservability:\n  delivery:\n    poll_interval_ms: 3600000\n    spill_after_ms: 200\n    request_timeout_ms: 5000\n'
  gateway = await startTestGateway({ clock, yaml })
  workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
})
after(() => gateway.close())

async function createDestination(body: Record<string, unknown>): Promise<string> {
  const response = await gateway.inject({
    method: 'POST',
    url: '/api/v1/observability/destinations',
    headers: bearer(gateway.adminKey),
    payload: body,
  })
  assert.equal(response.statusCode, 201, response.body)
  return response.json().data.id
}

async function disable(id: string): Promise<void> {
  await gateway.inject({
    method: 'PATCH',
    url: `/api/v1/observability/destinations/${id}`,
    headers: bearer(gateway.adminKey),
    payload: { enabled: false },
  })
}

async function delivery(
  id: string,
): Promise<{ pending: number; failed: number; delivered: number; dead_lettered: number; last_error: string | null }> {
  const response = await gateway.inject({
    method: 'GET',
    url: `/api/v1/observability/destinations/${id}`,
    headers: bearer(gateway.adminKey),
  })
  return response.json().data.delivery
}

const outboxRows = (destinationId: string) =>
  gateway.store.db
    .selectFrom('observability_outbox')
    .selectAll()
    .where('destination_id', '=', destinationId)
    .orderBy('generation_id')
    .execute()

/** An otel-collector destination sending to the recording server at `url`. */
const createCollector = (name: string, url: string) =>
  createDestination({ name, type: 'otel-collector', config: { endpoint: `${url}/v1/traces` } })

/** A DirectDelivery of its own on the gateway's store, its delivered counts told to `deliveredCounts`. */
function directDelivery(deliveredCounts: DirectDeliveryDeps['deliveredCounts'], options = defaultDeliveryOptions) {
  const db = gateway.store.db
  return new DirectDelivery({
    outbox: createObservabilityOutboxRepository(db),
    destinations: createObservabilityDestinationsRepository(db),
    deliveredCounts,
    exporters: createExporters(),
    clock,
    egress: { allowPrivateNetworks: true },
    logger: pino({ level: 'silent' }),
    options,
  })
}

/** The destination as the broadcaster holds it (decoded from its stored row). */
async function decodedDestination(id: string): Promise<Destination> {
  const row = await createObservabilityDestinationsRepository(gateway.store.db).find(id)
  return decodeDestination(row!, gateway.secretBox)
}

test('fresh records go out from memory: one OTLP export, no outbox row, counted as delivered', async () => {
  const receiver = await startRecordingServer()
  try {
    const id = await createCollector('collector', receiver.url)
    const traces = Array.from({ length: 5 }, () => sampleTrace(workspaceId))
    assert.deepEqual(await Promise.all(traces.map((trace) => broadcast(gateway, trace))), [1, 1, 1, 1, 1])
    assert.deepEqual(await outboxRows(id), [], 'queued in memory, not written')
    await waitFor(async () => ((await delivery(id)).delivered === 5 ? true : undefined), 'the delivered count')
    assert.equal(receiver.requests.length, 1, 'one export request')
    const spanIds = decodeOtlpTraces(receiver.requests[0]!.body)
      .map((span) => String(span.attributes['gen_ai.response.id']))
      .sort()
    assert.deepEqual(spanIds, traces.map((trace) => trace.generationId).sort())
    assert.deepEqual(await outboxRows(id), [])
    assert.deepEqual(await delivery(id), { pending: 0, failed: 0, delivered: 5, dead_lettered: 0, last_error: null })
    await disable(id)
  } finally {
    await receiver.close()
  }
})

test('a failed direct delivery leaves each record in the outbox with one attempt, and the destination cools off', async () => {
  const receiver = await startRecordingServer()
  receiver.status = 500
  try {
    const id = await createDestination({ name: 'hook', type: 'webhook', config: { url: `${receiver.url}/hook` } })
    const traces = [sampleTrace(workspaceId), sampleTrace(workspaceId)]
    for (const trace of traces) assert.equal(await broadcast(gateway, trace), 1)
    await waitFor(async () => ((await delivery(id)).failed === 2 ? true : undefined), 'two failed records')
    const rows = await outboxRows(id)
    assert.deepEqual(
      rows.map((row) => row.generation_id),
      traces.map((trace) => trace.generationId).sort(),
    )
    for (const row of rows) {
      assert.equal(row.status, 'pending')
      assert.equal(row.attempts, 1)
      assert.equal(row.lease_owner, null)
      assert.equal(
        row.next_attempt_at,
        new Date(clock.current + defaultDeliveryOptions.backoffBaseMs).toISOString(),
        'retried after the first backoff',
      )
      assert.match(row.last_error ?? '', /HTTP 500/)
      assert.equal(JSON.parse(row.payload).record.id, row.generation_id)
    }
    assert.match((await delivery(id)).last_error ?? '', /HTTP 500/)

    const later = sampleTrace(workspaceId)
    assert.equal(await broadcast(gateway, later), 1)
    const queued = (await outboxRows(id)).find((row) => row.generation_id === later.generationId)
    assert.equal(queued?.attempts, 0, 'while cooling off, a fresh record goes straight to the outbox')
    const counts = await delivery(id)
    assert.deepEqual([counts.pending, counts.failed, counts.delivered], [3, 2, 0])
    await disable(id)
  } finally {
    await receiver.close()
  }
})

test('a slow delivery is kept in the outbox, leased, until the destination answers', async () => {
  const receiver = await startRecordingServer()
  receiver.delayMs = 1500
  try {
    const id = await createDestination({ name: 'slow hook', type: 'webhook', config: { url: `${receiver.url}/hook` } })
    const trace = sampleTrace(workspaceId)
    assert.equal(await broadcast(gateway, trace), 1)
    const [spilled] = await waitFor(async () => {
      const rows = await outboxRows(id)
      return rows.length === 1 ? rows : undefined
    }, 'the spilled row')
    assert.equal(spilled?.generation_id, trace.generationId)
    assert.equal(spilled?.status, 'pending')
    assert.equal(spilled?.attempts, 0)
    assert.notEqual(spilled?.lease_owner, null, 'leased to this process, so no poll sends it again')
    assert.equal((await delivery(id)).delivered, 0)
    await waitFor(async () => ((await delivery(id)).delivered === 1 ? true : undefined), 'the delivered count')
    assert.deepEqual(await outboxRows(id), [], 'settled: the row is gone')
    assert.equal(receiver.requests.length, 1)
    await disable(id)
  } finally {
    await receiver.close()
  }
})

test('stop writes the records still queued to the outbox; a repeat of a queued record is not queued twice', async () => {
  const receiver = await startRecordingServer()
  try {
    const id = await createDestination({ name: 'late hook', type: 'webhook', config: { url: `${receiver.url}/hook` } })
    const destination = await decodedDestination(id)
    const direct = directDelivery({ add: () => assert.fail('nothing was delivered') })
    const trace = sampleTrace(workspaceId)
    const payload = { record: buildDestinationRecord(trace, destination), apiKeyName: trace.apiKeyName }
    assert.equal(direct.offer(destination, trace.generationId, payload), 'queued')
    assert.equal(direct.offer(destination, trace.generationId, payload), 'duplicate')
    assert.equal(direct.size, 1)
    await direct.stop()
    assert.equal(direct.offer(destination, 'gen-after-stop', payload), 'declined')
    const rows = await outboxRows(id)
    assert.equal(rows.length, 1)
    assert.equal(rows[0]?.generation_id, trace.generationId)
    assert.equal(rows[0]?.attempts, 0)
    assert.equal(rows[0]?.lease_owner, null, 'any instance may deliver it')
    assert.deepEqual(JSON.parse(rows[0]!.payload), JSON.parse(JSON.stringify(payload)))
    assert.equal(receiver.requests.length, 0)
    await disable(id)
  } finally {
    await receiver.close()
  }
})

test('a queue that reaches batch_size goes at once; records short of it wait for the window, and stop keeps them', async () => {
  const receiver = await startRecordingServer()
  try {
    const id = await createCollector('full batch collector', receiver.url)
    const destination = await decodedDestination(id)
    let delivered = 0
    // A window of an hour: only a full queue can send within the test.
    const direct = directDelivery(
      { add: (_, count) => (delivered += count) },
      { ...defaultDeliveryOptions, batchDelayMs: 3_600_000, batchSize: 3 },
    )
    const traces = Array.from({ length: 5 }, () => sampleTrace(workspaceId))
    const offer = (trace: (typeof traces)[number]) =>
      direct.offer(destination, trace.generationId, {
        record: buildDestinationRecord(trace, destination),
        apiKeyName: trace.apiKeyName,
      })
    for (const trace of traces.slice(0, 3)) assert.equal(offer(trace), 'queued')
    await waitFor(async () => (delivered === 3 ? true : undefined), 'the full batch delivered')
    assert.equal(receiver.requests.length, 1)
    const sent = decodeOtlpTraces(receiver.requests[0]!.body).map((span) => span.attributes['gen_ai.response.id'])
    assert.deepEqual(
      sent,
      traces.slice(0, 3).map((trace) => trace.generationId),
    )
    for (const trace of traces.slice(3)) assert.equal(offer(trace), 'queued')
    assert.equal(direct.size, 2, 'two short of a batch wait for the window')
    await direct.stop()
    assert.equal(receiver.requests.length, 1)
    assert.deepEqual(
      (await outboxRows(id)).map((row) => row.generation_id),
      traces
        .slice(3)
        .map((trace) => trace.generationId)
        .sort(),
    )
    await disable(id)
  } finally {
    await receiver.close()
  }
})

test('a store that is slow to commit holds back no batch; the counts go with the next commits, summed per destination', async () => {
  const db = gateway.store.db
  const receiver = await startRecordingServer()
  const committed: unknown[][] = []
  let releaseStore = (): void => undefined
  const storeReleased = new Promise<void>((resolve) => (releaseStore = resolve))
  const slowWrites: WriteBehind = {
    rejectedRows: gateway.store.writes.rejectedRows,
    commit: async (statements) => {
      await storeReleased
      committed.push(statements.map((statement) => statement.parameters))
      await gateway.store.writes.commit(statements)
    },
    close: async () => undefined,
  }
  const commits = new GroupCommit(slowWrites, { onError: (error) => assert.fail(String(error)) })
  try {
    const id = await createCollector('busy store collector', receiver.url)
    const destination = await decodedDestination(id)
    const direct = directDelivery(new DeliveredCounts(commits.queue(deliveredCountsPlan(db))))
    const rounds = defaultDeliveryOptions.concurrencyPerDestination + 2
    let firstCommit: Promise<void> | undefined
    for (let round = 1; round <= rounds; round++) {
      for (let index = 0; index < 5; index++) {
        const trace = sampleTrace(workspaceId)
        assert.equal(
          direct.offer(destination, trace.generationId, {
            record: buildDestinationRecord(trace, destination),
            apiKeyName: trace.apiKeyName,
          }),
          'queued',
        )
      }
      await waitFor(
        async () => (receiver.requests.length === round ? true : undefined),
        `export ${round} while the store is busy`,
      )
      if (round === 1) {
        await waitFor(async () => (commits.pendingCount === 1 ? true : undefined), 'the first count queued')
        firstCommit = commits.durable()
      }
    }
    await waitFor(async () => (direct.size === 0 ? true : undefined), 'every batch answered')
    await waitFor(async () => (commits.pendingCount === rounds ? true : undefined), 'every count queued')
    assert.deepEqual(committed, [], 'no count written yet')
    releaseStore()
    await firstCommit
    await direct.stop()
    await commits.close()
    assert.deepEqual(
      committed,
      [[[5, id]], [[5 * (rounds - 1), id]]],
      'the first commit, then one update for every batch that finished while it waited',
    )
    assert.equal((await delivery(id)).delivered, 5 * rounds)
    assert.deepEqual(await outboxRows(id), [])
    await disable(id)
  } finally {
    releaseStore()
    await commits.close()
    await receiver.close()
  }
})
