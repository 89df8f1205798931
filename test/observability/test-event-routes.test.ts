// "Send test event" (POST /api/v1/observability/destinations/{id}/test) over a real gateway and real
// local receivers (a webhook and OTLP recorder, s3rver): one synthetic generation goes out through the
// destination's exporter and the answer says what happened, the destination's status included; nothing
// is written (delivery counts, last_error, outbox, ledger, generation records). SQLite, and PostgreSQL
// with TEST_DATABASE_URL.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startS3Bucket } from './s3-bucket.fixture.ts'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { signWebhook } from '../../src/observability/exporters/webhook-signature.ts'
import { startRecordingServer, type RecordingServer } from './support/recording-server.ts'
import { decodeOtlpTraces } from './support/decode-otlp-traces.ts'

const postgres = postgresTarget()
const engines = [
  { name: 'sqlite', skip: false as const, url: undefined },
  { name: 'postgres', skip: postgres.skip, url: postgres.url },
]
const base = '/api/v1/observability/destinations'

interface TestEventAnswer {
  destination_id: string
  type: string
  generation_id: string
  delivered: boolean
  error: { message: string; status: number | null } | null
}

for (const engine of engines) {
  describe(`send test event on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    let receiver: RecordingServer
    before(async () => {
      gateway = await startTestGateway({
        yaml: 'egress:\n  allow_private_networks: true\nobservability:\n  delivery:\n    request_timeout_ms: 2000\n',
        ...(engine.url === undefined ? {} : { postgresUrl: engine.url }),
      })
      receiver = await startRecordingServer()
    })
    after(async () => {
      await receiver.close()
      await gateway.close()
    })

    const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, key = gateway.adminKey) =>
      gateway.inject({ method, url, headers: bearer(key), ...(payload === undefined ? {} : { payload }) })

    async function create(body: Record<string, unknown>): Promise<{ id: string; config: Record<string, string> }> {
      const response = await call('POST', base, body)
      assert.equal(response.statusCode, 201, response.body)
      return response.json().data
    }

    async function sendTest(id: string): Promise<TestEventAnswer> {
      const response = await call('POST', `${base}/${id}/test`)
      assert.equal(response.statusCode, 200, response.body)
      return response.json().data
    }

    /** Rows that a test event must never add. */
    async function writtenRows(): Promise<Record<string, number>> {
      const { db } = gateway.store
      const count = async (table: 'ledger_entries' | 'generations' | 'observability_outbox') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        )
      return {
        ledger_entries: await count('ledger_entries'),
        generations: await count('generations'),
        observability_outbox: await count('observability_outbox'),
      }
    }

    const untouched = { pending: 0, failed: 0, delivered: 0, dead_lettered: 0, last_error: null }

    test('a webhook receives one signed synthetic generation; nothing is recorded', async () => {
      const destination = await create({ name: 'hook', type: 'webhook', config: { url: `${receiver.url}/in` } })
      const rowsBefore = await writtenRows()
      receiver.requests.length = 0
      const answer = await sendTest(destination.id)
      assert.equal(answer.delivered, true)
      assert.equal(answer.error, null)
      assert.equal(answer.destination_id, destination.id)
      assert.equal(answer.type, 'webhook')
      assert.match(answer.generation_id, /^gen-test-/)
      assert.equal(receiver.requests.length, 1)
      const [request] = receiver.requests
      const body = request!.body.toString('utf8')
      const record = JSON.parse(body)
      assert.equal(record.id, answer.generation_id)
      assert.equal(record.model, 'switchyard/test-event')
      assert.equal(record.workspace_id, gateway.gateway.bootstrap.defaultWorkspaceId)
      assert.equal(record.input.messages[0].content, 'This is a test event from Switchyard.')
      const id = String(request!.headers['webhook-id'])
      const timestamp = Number(request!.headers['webhook-timestamp'])
      assert.equal(request!.headers['webhook-signature'], signWebhook(destination.config.secret!, id, timestamp, body))
      assert.deepEqual(await writtenRows(), rowsBefore)
      assert.equal(await gateway.findGeneration(answer.generation_id), undefined)
      assert.deepEqual((await call('GET', `${base}/${destination.id}`)).json().data.delivery, untouched)
    })

    test("a refusing webhook: the answer carries its status; the destination's last_error stays", async () => {
      const destination = await create({ name: 'refusing', type: 'webhook', config: { url: `${receiver.url}/in` } })
      // A disabled destination can be tried before it is switched on.
      assert.equal((await call('PATCH', `${base}/${destination.id}`, { enabled: false })).statusCode, 200)
      receiver.status = 503
      try {
        const answer = await sendTest(destination.id)
        assert.equal(answer.delivered, false)
        assert.deepEqual(answer.error, { message: 'webhook answered HTTP 503', status: 503 })
      } finally {
        receiver.status = 200
      }
      assert.deepEqual((await call('GET', `${base}/${destination.id}`)).json().data.delivery, untouched)
    })

    test('privacy mode holds for the test event: no prompt or completion is sent', async () => {
      const destination = await create({
        name: 'private',
        type: 'webhook',
        privacy_mode: true,
        broadcast_generation_cost: true,
        config: { url: `${receiver.url}/private` },
      })
      receiver.requests.length = 0
      assert.equal((await sendTest(destination.id)).delivered, true)
      const record = JSON.parse(receiver.requests[0]!.body.toString('utf8'))
      assert.equal(record.input, undefined)
      assert.equal(record.output, undefined)
      assert.equal(record.cost, 0)
    })

    test('an unreachable webhook: the error says why and no status is given', async () => {
      const probe = await startRecordingServer()
      const closedUrl = `${probe.url}/gone`
      await probe.close()
      const destination = await create({ name: 'down', type: 'webhook', config: { url: closedUrl } })
      const answer = await sendTest(destination.id)
      assert.equal(answer.delivered, false)
      assert.equal(answer.error?.status, null)
      assert.match(answer.error?.message ?? '', /ECONNREFUSED|connect/i)
    })

    test('an OTLP collector: its refusal status, then a delivered span of the synthetic generation', async () => {
      const destination = await create({
        name: 'collector',
        type: 'otel-collector',
        config: { endpoint: `${receiver.url}/v1/traces` },
      })
      receiver.status = 400
      try {
        const refused = await sendTest(destination.id)
        assert.equal(refused.delivered, false)
        assert.equal(refused.error?.status, 400)
        assert.match(refused.error?.message ?? '', /^OTLP endpoint answered HTTP 400/)
      } finally {
        receiver.status = 200
      }
      receiver.requests.length = 0
      const answer = await sendTest(destination.id)
      assert.equal(answer.delivered, true)
      const [span] = decodeOtlpTraces(receiver.requests[0]!.body)
      assert.equal(span?.attributes['gen_ai.request.model'], 'switchyard/test-event')
    })

    test('s3: a missing bucket is a 404 from the bucket server; an existing one gets the object', async () => {
      const bucket = await startS3Bucket()
      const config = {
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        endpoint: bucket.endpoint,
        region: 'us-east-1',
      }
      try {
        const missing = await create({ name: 'no bucket', type: 's3', config: { ...config, bucketName: 'absent' } })
        const refused = await sendTest(missing.id)
        assert.equal(refused.delivered, false)
        assert.equal(refused.error?.status, 404)
        assert.match(refused.error?.message ?? '', /^S3 answered HTTP 404 \(NoSuchBucket/)
        const present = await create({ name: 'bucket', type: 's3', config: { ...config, bucketName: 'traces' } })
        assert.equal((await sendTest(present.id)).delivered, true)
      } finally {
        await bucket.close()
      }
    })

    test('an unknown or deleted destination is a 404 and inference keys are refused, in the error envelope', async () => {
      const missing = await call('POST', `${base}/no-such-destination/test`)
      assert.equal(missing.statusCode, 404)
      assert.match(missing.json().error.message, /Observability destination no-such-destination not found/)
      const destination = await create({ name: 'deleted', type: 'webhook', config: { url: `${receiver.url}/in` } })
      await gateway.inject({ method: 'DELETE', url: `${base}/${destination.id}`, headers: bearer(gateway.adminKey) })
      assert.equal((await call('POST', `${base}/${destination.id}/test`)).statusCode, 404)
      const key = await call('POST', '/api/v1/keys', { name: 'inference' })
      const refused = await call('POST', `${base}/${destination.id}/test`, undefined, key.json().key)
      assert.equal(refused.statusCode, 403)
      assert.equal(refused.json().error.code, 403)
    })
  })
}
