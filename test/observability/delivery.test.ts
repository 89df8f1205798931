// Delivery end to end: a real gateway, enqueueGeneration, the outbox worker, and real local receivers
// (OTLP/HTTP protobuf, a signed webhook, s3rver). Time is an injected clock, so retries happen when
// the test moves time forward, never because of a sleep.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startS3Bucket } from './s3-bucket.fixture.ts'
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { signWebhook } from '../../src/observability/exporters/webhook-signature.ts'
import { startRecordingServer, type RecordingServer } from './support/recording-server.ts'
import { decodeOtlpTraces } from './support/decode-otlp-traces.ts'
import { completionText, promptText, sampleTrace } from './support/sample-trace.ts'
import { broadcast } from './support/broadcast.ts'

const clock = {
  current: Date.parse('2026-03-04T06:00:00.000Z'),
  now: () => new Date(clock.current),
  advance: (ms: number) => (clock.current += ms),
}
let gateway: TestGateway
let workspaceId: string

before(async () => {
  gateway = await startTestGateway({
    clock,
    yaml: 'egress:\n  allow_private_networks: true\nobservability:\n  delivery:\n    poll_interval_ms: 10\n    request_timeout_ms: 1500\n',
  })
  workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
})
after(() => gateway.close())

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  deadlineMs = 30_000,
): Promise<T> {
  const until = Date.now() + deadlineMs
  while (Date.now() < until) {
    const value = await probe()
    if (value !== undefined) return value
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`timed out waiting for ${what}`)
}

async function createDestination(
  body: Record<string, unknown>,
): Promise<{ id: string; config: Record<string, unknown> }> {
  const response = await gateway.inject({
    method: 'POST',
    url: '/api/v1/observability/destinations',
    headers: bearer(gateway.adminKey),
    payload: body,
  })
  assert.equal(response.statusCode, 201, response.body)
  return response.json().data
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

async function disable(id: string): Promise<void> {
  await gateway.inject({
    method: 'PATCH',
    url: `/api/v1/observability/destinations/${id}`,
    headers: bearer(gateway.adminKey),
    payload: { enabled: false },
  })
}

test('otel-collector and arize receive OTLP/HTTP protobuf spans with GenAI attributes', async () => {
  const receiver = await startRecordingServer()
  try {
    const collector = await createDestination({
      name: 'collector',
      type: 'otel-collector',
      config: { endpoint: `${receiver.url}/v1/traces`, headers: { 'x-team': 'blue' } },
      broadcast_generation_cost: true,
      broadcast_generation_identity: true,
    })
    const arize = await createDestination({
      name: 'arize',
      type: 'arize',
      config: { apiKey: 'arize-key', spaceKey: 'space-1', modelId: 'model-1', baseUrl: receiver.url },
    })
    const trace = sampleTrace(workspaceId)
    assert.equal(await broadcast(gateway, trace), 2)
    await waitFor('two OTLP requests', () => (receiver.requests.length >= 2 ? true : undefined))
    const toCollector = receiver.requests.find((request) => request.headers['x-team'] === 'blue')
    const toArize = receiver.requests.find((request) => request.headers['space_id'] === 'space-1')
    assert.ok(toCollector !== undefined && toArize !== undefined)
    assert.equal(toCollector.path, '/v1/traces')
    assert.equal(toCollector.headers['content-type'], 'application/x-protobuf')
    const [span] = decodeOtlpTraces(toCollector.body)
    assert.ok(span !== undefined)
    assert.match(span.traceId, /^[0-9a-f]{32}$/)
    assert.equal(span.name, 'chat acme/fast-1')
    assert.equal(span.startTimeUnixNano, BigInt(Date.parse(trace.timing.startedAt)) * 1_000_000n)
    assert.equal(span.endTimeUnixNano, BigInt(Date.parse(trace.timing.endedAt)) * 1_000_000n)
    assert.equal(span.attributes['gen_ai.system'], 'acme')
    assert.equal(span.attributes['gen_ai.request.model'], 'acme/fast-1')
    assert.equal(span.attributes['gen_ai.usage.input_tokens'], 12)
    assert.equal(span.attributes['gen_ai.usage.output_tokens'], 7)
    assert.deepEqual(span.attributes['gen_ai.response.finish_reasons'], ['stop'])
    assert.equal(span.attributes['gen_ai.conversation.id'], 'session-9')
    assert.equal(span.attributes['gen_ai.usage.cost'], 0.000025)
    assert.equal(span.attributes['user.id'], 'end-user-7')
    assert.match(String(span.attributes['gen_ai.input.messages']), /PELICAN-42/)
    assert.equal(span.attributes['http.request.header.http-referer'], undefined, 'request context needs its flag')
    assert.equal(span.resource['service.name'], 'switchyard')
    assert.equal(toArize.path, '/v1/traces')
    assert.equal(toArize.headers['api_key'], 'arize-key')
    assert.equal(decodeOtlpTraces(toArize.body)[0]?.resource['model_id'], 'model-1')
    assert.equal(decodeOtlpTraces(toArize.body)[0]?.attributes['gen_ai.usage.cost'], undefined, 'cost needs its flag')
    await waitFor('delivered counters', async () => ((await delivery(collector.id)).delivered === 1 ? true : undefined))
    await disable(collector.id)
    await disable(arize.id)
  } finally {
    await receiver.close()
  }
})

test('webhook: Standard-Webhooks signature verifies; privacy mode withholds prompt and completion', async () => {
  const receiver = await startRecordingServer()
  try {
    const destination = await createDestination({
      name: 'hook',
      type: 'webhook',
      config: { url: `${receiver.url}/hook`, method: 'PUT' },
      privacy_mode: true,
      broadcast_generation_request_context: true,
    })
    const secret = destination.config.secret as string
    await broadcast(gateway, sampleTrace(workspaceId))
    const request = await waitFor('webhook request', () => receiver.requests[0])
    assert.equal(request.method, 'PUT')
    const id = String(request.headers['webhook-id'])
    const timestamp = Number(request.headers['webhook-timestamp'])
    assert.equal(timestamp, Math.floor(clock.current / 1000))
    assert.equal(
      request.headers['webhook-signature'],
      signWebhook(secret, id, timestamp, request.body.toString('utf8')),
    )
    assert.notEqual(
      request.headers['webhook-signature'],
      signWebhook(`whsec_${Buffer.alloc(32).toString('base64')}`, id, timestamp, request.body.toString('utf8')),
    )
    const text = request.body.toString('utf8')
    assert.equal(text.includes(promptText), false, 'privacy mode: no prompt')
    assert.equal(text.includes('PELICAN'), false)
    assert.equal(text.includes(completionText), false, 'privacy mode: no completion')
    const record = JSON.parse(text)
    assert.equal(record.usage.prompt_tokens, 12)
    assert.equal(record.cost, undefined)
    assert.equal(record.user, undefined)
    assert.equal(record.request_context.headers['x-title'], 'Example App')
    await disable(destination.id)
  } finally {
    await receiver.close()
  }
})

test('s3: one JSON object per trace at the rendered path template', async () => {
  const bucket = await startS3Bucket()
  const endpoint = bucket.endpoint
  try {
    const destination = await createDestination({
      name: 's3',
      type: 's3',
      broadcast_generation_cost_allocation: true,
      config: {
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        bucketName: 'traces',
        endpoint,
        region: 'us-east-1',
        prefix: 'gen',
        pathTemplate: '{prefix}/{year}/{month}/{day}/{apiKeyName}',
      },
    })
    const trace = sampleTrace(workspaceId)
    await broadcast(gateway, trace)
    const client = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    })
    const key = await waitFor(
      'the S3 object',
      async () => (await client.send(new ListObjectsV2Command({ Bucket: 'traces' }))).Contents?.[0]?.Key,
    )
    assert.match(key, new RegExp(`^gen/2026/03/04/ci_key/[0-9a-f]{32}-${Date.parse(trace.timing.startedAt)}\\.json$`))
    const object = await client.send(new GetObjectCommand({ Bucket: 'traces', Key: key }))
    const record = JSON.parse(await object.Body!.transformToString())
    assert.equal(record.id, trace.generationId)
    assert.deepEqual(record.cost_allocation, trace.costAllocation)
    assert.equal(record.input.messages[0].content, promptText)
    client.destroy()
    await disable(destination.id)
  } finally {
    await bucket.close()
  }
})

test('a receiver that is down for a while receives everything once it is back', async () => {
  const probe = await startRecordingServer()
  const port = Number(new URL(probe.url).port)
  await probe.close()
  const destination = await createDestination({
    name: 'flaky',
    type: 'webhook',
    config: { url: `http://127.0.0.1:${port}/hook` },
  })
  const traces = [1, 2, 3].map(() => sampleTrace(workspaceId))
  for (const trace of traces) await broadcast(gateway, trace)
  const failing = await waitFor('failed attempts', async () => {
    const counts = await delivery(destination.id)
    return counts.failed === 3 ? counts : undefined
  })
  assert.equal(failing.pending, 3)
  assert.notEqual(failing.last_error, null)
  const receiver = await startRecordingServer(port)
  try {
    clock.advance(60 * 60 * 1000)
    await waitFor('three deliveries', () => (receiver.requests.length === 3 ? true : undefined))
    const ids = receiver.requests.map((request) => JSON.parse(request.body.toString('utf8')).id).sort()
    assert.deepEqual(ids, traces.map((trace) => trace.generationId).sort())
    const done = await waitFor('delivered counters', async () => {
      const counts = await delivery(destination.id)
      return counts.delivered === 3 ? counts : undefined
    })
    assert.deepEqual(done, { pending: 0, failed: 0, delivered: 3, dead_lettered: 0, last_error: null })
    await disable(destination.id)
  } finally {
    await receiver.close()
  }
})

test('a permanently failing destination dead-letters after 8 attempts', async () => {
  const receiver: RecordingServer = await startRecordingServer()
  receiver.status = 500
  try {
    const destination = await createDestination({
      name: 'broken',
      type: 'webhook',
      config: { url: `${receiver.url}/hook` },
    })
    await broadcast(gateway, sampleTrace(workspaceId))
    const counts = await waitFor('dead letter', async () => {
      const current = await delivery(destination.id)
      if (current.dead_lettered === 1) return current
      clock.advance(60 * 60 * 1000)
      return undefined
    })
    assert.equal(counts.pending, 0)
    assert.match(counts.last_error ?? '', /HTTP 500/)
    const row = await gateway.store.db
      .selectFrom('observability_outbox')
      .selectAll()
      .where('destination_id', '=', destination.id)
      .executeTakeFirstOrThrow()
    assert.equal(row.attempts, 8)
    assert.equal(row.status, 'dead')
    assert.equal(receiver.requests.length, 0)
  } finally {
    await receiver.close()
  }
})
