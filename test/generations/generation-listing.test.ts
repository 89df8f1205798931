// GET /api/v1/generations over a real socket on both stores: newest first, a keyset cursor that stays
// exact while records are added, every filter, the key's scope, and a 400 naming each bad parameter.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import type { GenerationRecord } from '../../src/generations/generation-record.ts'
import { engines, getJson, RecordsFixture } from './records-fixture.ts'

interface Page {
  data: { id: string; created_at: string; [field: string]: unknown }[]
  next_cursor: string | null
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute)).toISOString()
const newestFirst = (records: readonly GenerationRecord[]) =>
  [...records]
    .sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1))
    .map((record) => record.id)

for (const engine of engines(postgresTarget())) {
  describe(`GET /api/v1/generations on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    let fixture: RecordsFixture
    let baseUrl: string

    before(async () => {
      gateway = await startTestGateway(engine.url === undefined ? {} : { postgresUrl: engine.url })
      fixture = new RecordsFixture(gateway)
      baseUrl = await gateway.listen()
    })
    after(() => gateway.close())

    async function pages(
      key: string,
      query: string,
      start: string | null = null,
    ): Promise<{ ids: string[]; pages: number }> {
      const ids: string[] = []
      let cursor: string | null = start
      let count = 0
      do {
        const suffix: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`
        const { status, body } = await getJson(baseUrl, key, `/api/v1/generations?${query}${suffix}`)
        assert.equal(status, 200, JSON.stringify(body))
        const page = body as unknown as Page
        ids.push(...page.data.map((item) => item.id))
        cursor = page.next_cursor
        count += 1
      } while (cursor !== null)
      return { ids, pages: count }
    }

    test('pages newest first by (created_at, id), ties included, and the last page has no cursor', async () => {
      const workspace = await fixture.workspace()
      const key = await fixture.key(workspace)
      const records = [0, 1, 1, 1, 2, 3, 5].map((minute) => fixture.record(workspace, key, { createdAt: at(minute) }))
      await fixture.write(records)
      const listed = await pages(key.plaintext, 'limit=3')
      assert.deepEqual(listed.ids, newestFirst(records))
      assert.equal(listed.pages, 3)
      const single = await getJson(baseUrl, key.plaintext, '/api/v1/generations?limit=7')
      assert.equal((single.body as unknown as Page).next_cursor, null)
    })

    test('the items are the objects GET /generation returns', async () => {
      const workspace = await fixture.workspace()
      const key = await fixture.key(workspace)
      const record = fixture.record(workspace, key, { sessionId: 's-shape', endUser: 'u-shape', isByok: true })
      await fixture.write([record])
      const listed = await getJson(baseUrl, key.plaintext, '/api/v1/generations')
      const single = await getJson(baseUrl, key.plaintext, `/api/v1/generation?id=${record.id}`)
      assert.deepEqual((listed.body as unknown as Page).data, [single.body.data])
    })

    test('a cursor stays exact while newer and older-page records are added', async () => {
      const workspace = await fixture.workspace()
      const key = await fixture.key(workspace)
      const first = [1, 2, 3, 4, 5, 6].map((minute) => fixture.record(workspace, key, { createdAt: at(minute) }))
      await fixture.write(first)
      const page1 = (await getJson(baseUrl, key.plaintext, '/api/v1/generations?limit=2')).body as unknown as Page
      await fixture.write([7, 8, 9].map((minute) => fixture.record(workspace, key, { createdAt: at(minute) })))
      const rest = await pages(key.plaintext, 'limit=2', page1.next_cursor)
      assert.deepEqual([...page1.data.map((item) => item.id), ...rest.ids], newestFirst(first))
    })

    test('each filter returns exactly the matching records', async () => {
      const workspace = await fixture.workspace()
      const key = await fixture.key(workspace)
      const other = await fixture.key(workspace)
      const plain = fixture.record(workspace, key, { createdAt: at(1) })
      const failed = fixture.record(workspace, key, {
        createdAt: at(2),
        status: 'failed',
        model: 'beta/big-2',
        provider: 'beta',
        errorStatus: 502,
        errorMessage: 'upstream failed',
      })
      const cancelled = fixture.record(workspace, key, { createdAt: at(3), status: 'cancelled', cancelled: true })
      const embeddings = fixture.record(workspace, other, {
        createdAt: at(4),
        apiType: 'embeddings',
        dialect: 'embeddings',
      })
      const messages = fixture.record(workspace, other, {
        createdAt: at(5),
        dialect: 'anthropic-messages',
        endUser: 'alice',
      })
      const session = fixture.record(workspace, key, {
        createdAt: at(6),
        sessionId: 'sess-1',
        dialect: 'openai-responses',
      })
      await fixture.write([plain, failed, cancelled, embeddings, messages, session])
      const expectations: [string, GenerationRecord[]][] = [
        ['model=beta/big-2', [failed]],
        ['provider=beta', [failed]],
        ['status=error', [failed]],
        ['status=success', [plain, embeddings, messages, session]],
        ['status=cancelled', [cancelled]],
        ['api_type=embeddings', [embeddings]],
        ['api_type=completions', [plain, failed, cancelled, messages, session]],
        ['api_type=messages', [messages]],
        ['api_type=responses', [session]],
        ['api_type=chat', [plain, failed, cancelled]],
        ['user=alice', [messages]],
        ['session_id=sess-1', [session]],
        [`api_key_hash=${other.hash}`, [embeddings, messages]],
        [`from=${encodeURIComponent(at(3))}&to=${encodeURIComponent(at(5))}`, [cancelled, embeddings]],
        ['from=2026-11-20T10:05:00%2B00:00', [messages, session]],
        ['to=2026-11-20', []],
        [`status=success&api_key_hash=${key.hash}`, [plain, session]],
      ]
      for (const [query, expected] of expectations) {
        const listed = await pages(key.plaintext, `limit=2&${query}`)
        assert.deepEqual(listed.ids, newestFirst(expected), query)
      }
    })

    test('a management key reads the organization, other keys their own workspace, intern keys their intern', async () => {
      const [one, two] = [await fixture.workspace(), await fixture.workspace()]
      const keyOne = await fixture.key(one)
      const keyTwo = await fixture.key(two)
      const internKey = await fixture.key(one, 'intern', 'intern-1')
      const internMinted = await fixture.key(one, 'inference', 'intern-1')
      const records = [
        fixture.record(one, keyOne, { model: 'scope/m', createdAt: at(1) }),
        fixture.record(two, keyTwo, { model: 'scope/m', createdAt: at(2) }),
        fixture.record(one, internKey, { model: 'scope/m', createdAt: at(3) }),
        fixture.record(one, internMinted, { model: 'scope/m', createdAt: at(4) }),
      ]
      await fixture.write(records)
      const [ofOne, ofTwo, ofIntern, ofMinted] = records.map((record) => record.id)
      assert.deepEqual((await pages(gateway.adminKey, 'model=scope/m')).ids, [ofMinted, ofIntern, ofTwo, ofOne])
      assert.deepEqual((await pages(gateway.adminKey, `model=scope/m&workspace_id=${two}`)).ids, [ofTwo])
      assert.deepEqual((await pages(keyOne.plaintext, 'model=scope/m')).ids, [ofMinted, ofIntern, ofOne])
      assert.deepEqual((await pages(keyTwo.plaintext, 'model=scope/m')).ids, [ofTwo])
      assert.deepEqual((await pages(internKey.plaintext, 'model=scope/m')).ids, [ofMinted, ofIntern])
      assert.deepEqual((await pages(internKey.plaintext, `api_key_hash=${keyOne.hash}`)).ids, [])
      const foreign = await getJson(baseUrl, keyOne.plaintext, `/api/v1/generations?workspace_id=${two}`)
      assert.equal(foreign.status, 404)
      assert.match(foreign.body.error!.message, /not the workspace of this API key/)
    })

    test('bad parameters are a 400 in the error envelope naming the parameter', async () => {
      const cases: [string, RegExp][] = [
        ['limit=0', /limit/],
        ['limit=101', /limit/],
        ['cursor=not-a-cursor!', /cursor/],
        [`cursor=${Buffer.from('yesterday|gen-1').toString('base64url')}`, /cursor is not a cursor this API issued/],
        ['status=ok', /status/],
        ['api_type=images', /api_type/],
        ['from=last-tuesday', /from must be an ISO 8601 date/],
        ['to=2026-13-45', /to must be an ISO 8601 date/],
        ['from=2026-11-21&to=2026-11-20', /from \(.*\) must be before to/],
        ['api_key_hash=abc', /api_key_hash/],
      ]
      for (const [query, message] of cases) {
        const { status, body } = await getJson(baseUrl, gateway.adminKey, `/api/v1/generations?${query}`)
        assert.equal(status, 400, query)
        assert.equal(body.error?.code, 400, query)
        assert.match(body.error!.message, message, query)
      }
      const anonymous = await fetch(`${baseUrl}/api/v1/generations`)
      assert.equal(anonymous.status, 401)
    })

    test('the route is in the OpenAPI document with its query parameters', async () => {
      const document = (await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json()) as {
        paths: Record<string, { get?: { parameters?: { name: string }[] } }>
      }
      const names = document.paths['/api/v1/generations']?.get?.parameters?.map((parameter) => parameter.name) ?? []
      for (const name of [
        'limit',
        'cursor',
        'api_key_hash',
        'workspace_id',
        'model',
        'provider',
        'status',
        'api_type',
        'from',
        'to',
        'user',
        'session_id',
      ])
        assert.ok(names.includes(name), name)
    })
  })
}
