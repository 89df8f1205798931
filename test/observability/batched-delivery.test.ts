// OTLP delivery in batches, against a real OTLP/HTTP receiver: the generations of one poll arrive as
// one export request over one kept-alive connection, a failed request fails (and later redelivers) all
// of its rows, and a changed destination config takes effect on the next delivery. The test drives its
// own DeliveryWorker one poll at a time (the gateway's own worker polls once an hour here).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import pino from 'pino'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { DeliveryWorker } from '../../src/observability/delivery-worker.ts'
import { defaultDeliveryOptions } from '../../src/observability/delivery-options.ts'
import { createObservabilityDestinationsRepository } from '../../src/store/repositories/observability-destinations-repository.ts'
import { createObservabilityOutboxRepository } from '../../src/store/repositories/observability-outbox-repository.ts'
import { startRecordingServer, type RecordingServer } from './support/recording-server.ts'
import { decodeOtlpTraces } from './support/decode-otlp-traces.ts'
import { sampleTrace } from './support/sample-trace.ts'
import { broadcast } from './support/broadcast.ts'

const clock = {
  current: Date.parse('2026-03-04T06:00:00.000Z'),
  now: () => new Date(clock.current),
  advance: (ms: number) => (clock.current += ms),
}
let gateway: TestGateway
let workspaceId: string

before(async () => {
  const yaml =
    'egress:\n  allow_private_networks: true\nobservability:\n  delivery:\n    direct: false\n    poll_interval_ms: 3600000\n'
  gateway = await startTestGateway({ clock, yaml })
  workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
})
after(() => gateway.close())

function startWorker(): DeliveryWorker {
  const db = gateway.store.db
  return new DeliveryWorker({
    destinations: createObservabilityDestinationsRepository(db),
    outbox: createObservabilityOutboxRepository(db),
    secretBox: gateway.secretBox,
    clock,
    egress: { allowPrivateNetworks: true },
    logger: pino({ level: 'silent' }),
    options: { ...defaultDeliveryOptions, requestTimeoutMs: 2000 },
  })
}

async function createCollector(receiver: RecordingServer, headers: Record<string, string> = {}): Promise<string> {
  const response = await gateway.inject({
    method: 'POST',
    url: '/api/v1/observability/destinations',
    headers: bearer(gateway.adminKey),
    payload: { name: 'collector', type: 'otel-collector', config: { endpoint: `${receiver.url}/v1/traces`, headers } },
  })
  assert.equal(response.statusCode, 201, response.body)
  return response.json().data.id
}

async function patchConfig(id: string, payload: Record<string, unknown>): Promise<void> {
  const response = await gateway.inject({
    method: 'PATCH',
    url: `/api/v1/observability/destinations/${id}`,
    headers: bearer(gateway.adminKey),
    payload,
  })
  assert.equal(response.statusCode, 200, response.body)
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

/** Enqueues `count` generations in one turn of the event loop; returns their generation ids. */
async function enqueue(count: number): Promise<string[]> {
  const traces = Array.from({ length: count }, () => sampleTrace(workspaceId))
  const added = await Promise.all(traces.map((trace) => broadcast(gateway, trace)))
  assert.deepEqual(
    added,
    traces.map(() => 1),
  )
  return traces.map((trace) => trace.generationId)
}

async function waitFor(what: string, isDone: () => Promise<boolean>): Promise<void> {
  for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (await isDone()) return
  }
  throw new Error(`timed out waiting for ${what}`)
}

const spanGenerationIds = (body: Buffer): string[] =>
  decodeOtlpTraces(body)
    .map((span) => String(span.attributes['gen_ai.response.id']))
    .sort()

test('the generations of one poll go to a collector as one export request, over one kept-alive connection', async () => {
  const receiver = await startRecordingServer()
  const worker = startWorker()
  try {
    const id = await createCollector(receiver)
    const first = await enqueue(20)
    assert.equal(await worker.deliverDue(), 20)
    assert.equal(receiver.requests.length, 1, 'twenty generations (encoded in several slices), one request')
    assert.deepEqual(spanGenerationIds(receiver.requests[0]!.body), first.sort())
    const second = await enqueue(3)
    assert.equal(await worker.deliverDue(), 3)
    assert.equal(receiver.requests.length, 2)
    assert.deepEqual(spanGenerationIds(receiver.requests[1]!.body), second.sort())
    assert.equal(
      receiver.requests[1]!.remotePort,
      receiver.requests[0]!.remotePort,
      'the second export reuses the connection',
    )
    assert.deepEqual(await delivery(id), { pending: 0, failed: 0, delivered: 23, dead_lettered: 0, last_error: null })
    await patchConfig(id, { enabled: false })
    assert.equal(await receiver.openConnections(), 1, 'the exporter keeps its connection open between polls')
    await worker.stop()
    await waitFor('the worker to close its connection', async () => (await receiver.openConnections()) === 0)
  } finally {
    await worker.stop()
    await receiver.close()
  }
})

test('a failed export fails every row it carried; the retry delivers them together', async () => {
  const receiver = await startRecordingServer()
  receiver.status = 500
  const worker = startWorker()
  try {
    const id = await createCollector(receiver)
    const generations = await enqueue(4)
    assert.equal(await worker.deliverDue(), 4)
    const failing = await delivery(id)
    assert.equal(failing.pending, 4)
    assert.equal(failing.failed, 4, 'every row of the failed request counts a failed attempt')
    assert.notEqual(failing.last_error, null)
    assert.equal(await worker.deliverDue(), 0, 'nothing is due before the backoff')
    receiver.status = 200
    clock.advance(60 * 60 * 1000)
    assert.equal(await worker.deliverDue(), 4)
    assert.equal(receiver.requests.length, 1)
    assert.deepEqual(spanGenerationIds(receiver.requests[0]!.body), generations.sort())
    assert.deepEqual(await delivery(id), { pending: 0, failed: 0, delivered: 4, dead_lettered: 0, last_error: null })
    await patchConfig(id, { enabled: false })
  } finally {
    await worker.stop()
    await receiver.close()
  }
})

test('a changed destination config takes effect on the next delivery', async () => {
  const first = await startRecordingServer()
  const second = await startRecordingServer()
  const worker = startWorker()
  try {
    const id = await createCollector(first, { 'x-team': 'blue' })
    await enqueue(2)
    await worker.deliverDue()
    await patchConfig(id, { config: { headers: { 'x-team': 'green' } } })
    await enqueue(2)
    await worker.deliverDue()
    assert.equal(first.requests.length, 2)
    assert.equal(first.requests[1]!.headers['x-team'], 'green', 'new headers are sent')
    assert.notEqual(
      first.requests[1]!.remotePort,
      first.requests[0]!.remotePort,
      'the exporter was rebuilt, with a new connection',
    )
    await patchConfig(id, { config: { endpoint: `${second.url}/v1/traces` } })
    const moved = await enqueue(3)
    await worker.deliverDue()
    await waitFor(
      'the replaced exporters to close their connections',
      async () => (await first.openConnections()) === 0,
    )
    assert.equal(first.requests.length, 2, 'the old endpoint gets nothing more')
    assert.equal(second.requests.length, 1)
    assert.equal(second.requests[0]!.headers['x-team'], 'green')
    assert.deepEqual(spanGenerationIds(second.requests[0]!.body), moved.sort())
    await patchConfig(id, { enabled: false })
  } finally {
    await worker.stop()
    await first.close()
    await second.close()
  }
})

test('a generation enqueued twice within one turn (one INSERT statement) gets one outbox row', async () => {
  const receiver = await startRecordingServer()
  const worker = startWorker()
  try {
    const id = await createCollector(receiver)
    const trace = sampleTrace(workspaceId)
    const other = sampleTrace(workspaceId)
    const added = await Promise.all([trace, other, trace].map((each) => broadcast(gateway, each)))
    assert.deepEqual(added, [1, 1, 0])
    assert.deepEqual(await delivery(id), { pending: 2, failed: 0, delivered: 0, dead_lettered: 0, last_error: null })
    await patchConfig(id, { enabled: false })
    assert.equal(await worker.deliverDue(), 2)
  } finally {
    await worker.stop()
    await receiver.close()
  }
})

test('webhook: still one request per record, over a kept-alive connection, closed when the worker stops', async () => {
  const receiver = await startRecordingServer()
  const worker = startWorker()
  try {
    const response = await gateway.inject({
      method: 'POST',
      url: '/api/v1/observability/destinations',
      headers: bearer(gateway.adminKey),
      payload: { name: 'hook', type: 'webhook', config: { url: `${receiver.url}/hook` } },
    })
    assert.equal(response.statusCode, 201, response.body)
    const id: string = response.json().data.id
    const [first] = await enqueue(1)
    assert.equal(await worker.deliverDue(), 1)
    const [second] = await enqueue(1)
    assert.equal(await worker.deliverDue(), 1)
    assert.deepEqual(
      receiver.requests.map((request) => JSON.parse(request.body.toString('utf8')).id),
      [first, second],
    )
    assert.equal(
      receiver.requests[1]!.remotePort,
      receiver.requests[0]!.remotePort,
      'the second delivery reuses the connection',
    )
    await patchConfig(id, { enabled: false })
    await worker.stop()
    await waitFor('the worker to close its connection', async () => (await receiver.openConnections()) === 0)
  } finally {
    await worker.stop()
    await receiver.close()
  }
})
