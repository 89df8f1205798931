// GET /api/v1/observability/destination-types: every type with its config fields and rules, as the
// create and update routes check them, and whether this gateway delivers it (what the console's
// destination form is built from).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { configFields, type DestinationType } from '../../src/observability/destination-types.ts'

interface TypeAnswer {
  type: string
  deliverable: boolean
  config: {
    name: string
    required: boolean
    secret: boolean
    url: boolean
    default: string | null
    values: string[] | null
  }[]
}

let gateway: TestGateway
let types: TypeAnswer[]
before(async () => {
  gateway = await startTestGateway()
  const response = await gateway.inject({
    method: 'GET',
    url: '/api/v1/observability/destination-types',
    headers: bearer(gateway.adminKey),
  })
  assert.equal(response.statusCode, 200, response.body)
  types = response.json().data
})
after(() => gateway.close())

const typeNamed = (name: string): TypeAnswer => {
  const found = types.find((entry) => entry.type === name)
  assert.ok(found !== undefined, `type ${name} is listed`)
  return found
}

test('the 17 types with each field in order, and which are deliverable', () => {
  assert.equal(types.length, 17)
  assert.deepEqual(typeNamed('webhook'), {
    type: 'webhook',
    deliverable: true,
    config: [
      { name: 'url', required: true, secret: false, url: true, default: null, values: null },
      { name: 'method', required: false, secret: false, url: false, default: 'POST', values: ['POST', 'PUT'] },
      { name: 'secret', required: false, secret: true, url: false, default: null, values: null },
    ],
  })
  assert.deepEqual(
    typeNamed('langfuse').config.map((field) => [field.name, field.required, field.secret, field.default]),
    [
      ['publicKey', true, false, null],
      ['secretKey', true, true, null],
      ['baseUrl', false, false, 'https://us.cloud.langfuse.com'],
    ],
  )
  const undeliverable = types.filter((entry) => !entry.deliverable).map((entry) => entry.type)
  assert.deepEqual(undeliverable.sort(), ['clickhouse', 'datadog', 'posthog', 'ramp', 'snowflake'])
  for (const entry of types)
    assert.deepEqual(
      entry.config.map((field) => field.name),
      Object.keys(configFields[entry.type as DestinationType]),
      `${entry.type}: the fields the API validates`,
    )
})

test('what the list says is what create does: a deliverable type is created, another refused', async () => {
  const create = (type: string, config: Record<string, string>) =>
    gateway.inject({
      method: 'POST',
      url: '/api/v1/observability/destinations',
      headers: bearer(gateway.adminKey),
      payload: { name: type, type, config },
    })
  const required = (name: string) =>
    Object.fromEntries(
      typeNamed(name)
        .config.filter((field) => field.required)
        .map((field) => [field.name, field.url ? 'https://example.com/in' : 'value-1234567890']),
    )
  assert.equal((await create('braintrust', required('braintrust'))).statusCode, 201)
  const refused = await create('datadog', required('datadog'))
  assert.equal(refused.statusCode, 400)
  assert.match(refused.json().error.message, /cannot be delivered by this gateway/)
})

test('inference keys are refused', async () => {
  const created = await gateway.inject({
    method: 'POST',
    url: '/api/v1/keys',
    headers: bearer(gateway.adminKey),
    payload: { name: 'inference' },
  })
  const response = await gateway.inject({
    method: 'GET',
    url: '/api/v1/observability/destination-types',
    headers: bearer(created.json().key),
  })
  assert.equal(response.statusCode, 403)
  assert.equal(response.json().error.code, 403)
})
