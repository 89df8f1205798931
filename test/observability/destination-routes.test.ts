// The observability destination routes over HTTP on a real gateway (SQLite; PostgreSQL with TEST_DATABASE_URL).
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'

const postgres = postgresTarget()
const engines = [
  { name: 'sqlite', skip: false as const, url: undefined },
  { name: 'postgres', skip: postgres.skip, url: postgres.url },
]

for (const engine of engines) {
  describe(`observability destination routes on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    const base = '/api/v1/observability/destinations'
    before(async () => {
      gateway = await startTestGateway(engine.url === undefined ? {} : { postgresUrl: engine.url })
    })
    after(() => gateway.close())

    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
      gateway.inject({
        method,
        url,
        headers: bearer(gateway.adminKey),
        ...(payload === undefined ? {} : { payload: payload as object }),
      })

    test('create applies defaults, masks secrets, and GET returns the same', async () => {
      const created = await call('POST', base, {
        name: 'Langfuse',
        type: 'langfuse',
        config: { publicKey: 'pk-lf-1', secretKey: 'sk-lf-secret-value-1234' },
        regions: ['eu', 'us'],
      })
      assert.equal(created.statusCode, 201)
      const data = created.json().data
      assert.equal(data.enabled, true)
      assert.equal(data.privacy_mode, false)
      assert.equal(data.sampling_rate, 1)
      assert.equal(data.broadcast_generation_cost, false)
      assert.equal(data.api_key_hashes, null)
      assert.deepEqual(data.regions, ['europe', 'us'])
      assert.equal(data.workspace_id, gateway.gateway.bootstrap.defaultWorkspaceId)
      assert.deepEqual(data.config, {
        publicKey: 'pk-lf-1',
        secretKey: '********1234',
        baseUrl: 'https://us.cloud.langfuse.com',
      })
      assert.deepEqual(data.delivery, { pending: 0, failed: 0, delivered: 0, dead_lettered: 0, last_error: null })
      const fetched = await call('GET', `${base}/${data.id}`)
      assert.deepEqual(fetched.json().data, data)
      const stored = await gateway.store.db
        .selectFrom('observability_destinations')
        .select('config')
        .where('id', '=', data.id)
        .executeTakeFirstOrThrow()
      assert.equal(stored.config.includes('sk-lf-secret-value-1234'), false, 'the secret is encrypted at rest')
    })

    test('every config problem is named at once', async () => {
      const response = await call('POST', base, {
        name: 'bad',
        type: 's3',
        config: { region: 7, bogus: 'x', endpoint: 'ftp://files' },
      })
      assert.equal(response.statusCode, 400)
      const message = response.json().error.message as string
      for (const expected of [
        'config.accessKeyId is required',
        'config.secretAccessKey is required',
        'config.bucketName is required',
        'config.region must be a non-empty string',
        'config.bogus is not a field',
        'scheme ftp',
      ]) {
        assert.ok(message.includes(expected), `${expected} in ${message}`)
      }
    })

    test('types without an exporter are refused, bad enums and filter rules are named', async () => {
      const undeliverable = await call('POST', base, {
        name: 'dd',
        type: 'datadog',
        config: { apiKey: 'k', mlApp: 'app' },
      })
      assert.equal(undeliverable.statusCode, 400)
      assert.match(undeliverable.json().error.message, /datadog cannot be delivered/)
      const unknownType = await call('POST', base, { name: 'x', type: 'splunk', config: {} })
      assert.equal(unknownType.statusCode, 400)
      const rules = await call('POST', base, {
        name: 'rules',
        type: 'webhook',
        config: { url: 'https://example.com/hook' },
        filter_rules: {
          groups: [
            {
              rules: [
                { field: 'model', operator: 'regex', value: '(' },
                { field: 'total_cost', operator: 'gt', value: 'abc' },
                { field: 'model', operator: 'equals' },
              ],
            },
          ],
        },
      })
      assert.equal(rules.statusCode, 400)
      const message = rules.json().error.message as string
      assert.match(message, /rules\[0\]\.value is not a valid regular expression/)
      assert.match(message, /rules\[1\]\.value must be a number/)
      assert.match(message, /rules\[2\]\.value is required/)
      for (const body of [
        { sampling_rate: 0 },
        { sampling_rate: 1.5 },
        { regions: [] },
        { regions: ['mars'] },
        { api_key_hashes: [] },
      ]) {
        const response = await call('POST', base, {
          name: 'w',
          type: 'webhook',
          config: { url: 'https://example.com/hook' },
          ...body,
        })
        assert.equal(response.statusCode, 400, JSON.stringify(body))
      }
      const privateUrl = await call('POST', base, {
        name: 'w',
        type: 'webhook',
        config: { url: 'http://127.0.0.1:9/hook' },
      })
      assert.equal(privateUrl.statusCode, 400)
      assert.match(privateUrl.json().error.message, /private, loopback/)
    })

    test('webhook secret is generated and shown once; at most 5 per type (409)', async () => {
      const ids: string[] = []
      for (let index = 0; index < 5; index += 1) {
        const response = await call('POST', base, {
          name: `hook ${index}`,
          type: 'webhook',
          config: { url: 'https://example.com/hook' },
        })
        assert.equal(response.statusCode, 201)
        const data = response.json().data
        ids.push(data.id)
        assert.match(data.config.secret, /^whsec_[A-Za-z0-9+/=]{40,}$/)
        assert.equal(data.config.method, 'POST')
      }
      const fetched = (await call('GET', `${base}/${ids[0]}`)).json().data
      assert.match(fetched.config.secret, /^\*{8}.{4}$/)
      const sixth = await call('POST', base, {
        name: 'hook 6',
        type: 'webhook',
        config: { url: 'https://example.com/hook' },
      })
      assert.equal(sixth.statusCode, 409)
      assert.equal((await call('DELETE', `${base}/${ids[4]}`)).statusCode, 200)
      assert.equal(
        (await call('POST', base, { name: 'hook 6', type: 'webhook', config: { url: 'https://example.com/hook' } }))
          .statusCode,
        201,
      )
    })

    test('PATCH changes only given fields, keeps masked secrets, clears api_key_hashes with null', async () => {
      const created = (
        await call('POST', base, {
          name: 'otel',
          type: 'otel-collector',
          config: {
            endpoint: 'https://collector.example.com/v1/traces',
            headers: { authorization: 'Bearer abcdefghijklmnop' },
          },
          api_key_hashes: ['abc'],
        })
      ).json().data
      assert.equal(created.config.headers.authorization, '********mnop')
      const patched = await call('PATCH', `${base}/${created.id}`, {
        name: 'renamed',
        config: {
          endpoint: 'https://other.example.com/v1/traces',
          headers: { authorization: created.config.headers.authorization },
        },
        api_key_hashes: null,
        regions: ['eu'],
      })
      assert.equal(patched.statusCode, 200)
      const data = patched.json().data
      assert.equal(data.name, 'renamed')
      assert.equal(data.api_key_hashes, null)
      assert.deepEqual(data.regions, ['europe'])
      assert.equal(data.sampling_rate, 1)
      const sampled = await call('PATCH', `${base}/${created.id}`, { sampling_rate: 0.0001 })
      assert.equal(sampled.json().data.sampling_rate, 0.0001, 'stored without float4 rounding')
      const row = await gateway.store.db
        .selectFrom('observability_destinations')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow()
      const { decodeDestination } = await import('../../src/observability/destination.ts')
      const decoded = decodeDestination(row, gateway.secretBox)
      assert.equal(
        decoded.config.headers?.authorization,
        'Bearer abcdefghijklmnop',
        'a masked value keeps the stored secret',
      )
      assert.equal(decoded.config.endpoint, 'https://other.example.com/v1/traces')
      assert.equal((await call('PATCH', `${base}/${created.id}`, { regions: null })).statusCode, 400)
      assert.equal((await call('PATCH', `${base}/${created.id}`, { regions: [] })).statusCode, 400)
    })

    test('list pages with total_count, DELETE soft-deletes then 404', async () => {
      const list = await call('GET', `${base}?limit=2&offset=0`)
      assert.equal(list.statusCode, 200)
      const body = list.json()
      assert.equal(body.data.length, 2)
      assert.ok(body.total_count >= 7)
      const all = (await call('GET', `${base}?limit=100`)).json()
      assert.equal(all.data.length, all.total_count)
      assert.equal((await call('GET', `${base}?limit=101`)).statusCode, 400)
      const id = all.data[0].id
      const deleted = await call('DELETE', `${base}/${id}`)
      assert.deepEqual(deleted.json(), { deleted: true })
      assert.equal((await call('GET', `${base}/${id}`)).statusCode, 404)
      assert.equal((await call('DELETE', `${base}/${id}`)).statusCode, 404)
      assert.equal((await call('PATCH', `${base}/${id}`, { name: 'x' })).statusCode, 404)
      assert.equal((await call('GET', `${base}?limit=100`)).json().total_count, all.total_count - 1)
      assert.equal((await call('GET', `${base}?workspace_id=00000000-0000-4000-8000-000000000000`)).statusCode, 400)
    })

    test('management key required', async () => {
      assert.equal((await gateway.inject({ method: 'GET', url: base })).statusCode, 401)
    })
  })
}
