// @openrouter/sdk observability.* against the gateway over a real socket: the SDK's zod schemas must
// accept every response.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { OpenRouter } from '@openrouter/sdk'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { createObservabilityDestinationsRepository } from '../../src/store/repositories/observability-destinations-repository.ts'
import { createObservabilityOutboxRepository } from '../../src/store/repositories/observability-outbox-repository.ts'
import { createGenerationBroadcaster } from '../../src/observability/generation-broadcaster.ts'
import { openStore } from '../../src/store/open-store.ts'
import { systemClock } from '../../src/domain/clock.ts'
import { sampleTrace } from './support/sample-trace.ts'

/** The fields every known destination type shares (the SDK's union also has an Unknown member). */
interface Shown {
  readonly id: string
  readonly name: string | null
  readonly privacyMode: boolean
}

let gateway: TestGateway
let client: OpenRouter

before(async () => {
  gateway = await startTestGateway()
  client = new OpenRouter({ apiKey: gateway.adminKey, serverURL: `${await gateway.listen()}/api/v1` })
})
after(() => gateway.close())

test('create, list, get, update and delete through the SDK', async () => {
  const created = await client.observability.create({
    createObservabilityDestinationRequest: {
      name: 'SDK webhook',
      type: 'webhook',
      config: { url: 'https://hooks.example.com/in' },
      regions: ['eu'],
      samplingRate: 0.5,
      filterRules: {
        enabled: true,
        groups: [{ logic: 'and', rules: [{ field: 'model', operator: 'starts_with', value: 'acme/' }] }],
      },
    },
  })
  const destination = created.data
  assert.equal(destination.type, 'webhook')
  assert.deepEqual(destination.regions, ['europe'])
  assert.equal(destination.samplingRate, 0.5)
  const id = destination.id

  const s3 = await client.observability.create({
    createObservabilityDestinationRequest: {
      name: 'SDK s3',
      type: 's3',
      config: { accessKeyId: 'AKIA', secretAccessKey: 'secret-secret-secret', bucketName: 'b' },
    },
  })
  assert.equal(s3.data.type, 's3')

  const page = await client.observability.list({ limit: 10 })
  assert.equal(page.result.totalCount, 2)
  assert.deepEqual(page.result.data.map((item) => (item as Shown).id).sort(), [id, s3.data.id].sort())

  const fetched = await client.observability.get({ id })
  assert.equal((fetched.data as Shown).name, 'SDK webhook')

  const updated = await client.observability.update({
    id,
    updateObservabilityDestinationRequest: { name: 'renamed', privacyMode: true },
  })
  assert.equal((updated.data as Shown).name, 'renamed')
  assert.equal((updated.data as Shown).privacyMode, true)

  const deleted = await client.observability.delete({ id })
  assert.equal(deleted.deleted, true)
  await assert.rejects(
    client.observability.get({ id }),
    (error: Error & { statusCode?: number }) => error.statusCode === 404,
  )
})

test('enqueueGeneration fails open: a store that fails drops the trace without throwing', async () => {
  const store = openStore(`sqlite:${join(gateway.database.directory, 'unmigrated.db')}`)
  const warnings: unknown[] = []
  const broadcaster = createGenerationBroadcaster({
    destinations: createObservabilityDestinationsRepository(store.db),
    outbox: createObservabilityOutboxRepository(store.db),
    secretBox: gateway.secretBox,
    clock: systemClock,
    logger: { warn: (...args: unknown[]) => warnings.push(args) },
  })
  assert.equal(await broadcaster.enqueueGeneration(sampleTrace(gateway.gateway.bootstrap.defaultWorkspaceId)), 0)
  assert.equal(warnings.length, 1)
  await store.close()
})
