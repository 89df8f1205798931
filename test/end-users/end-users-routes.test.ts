// The end-users management routes (api-reference §9, spec "End user" and DELETE /end-users/{user}),
// on SQLite and, when TEST_DATABASE_URL is set, PostgreSQL.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { mintApiKey } from '../presets/mint-api-key.ts'

interface EndUser {
  user: string
  is_active: boolean
  created_at: string
  updated_at: string
}

const postgres = postgresTarget()
const engines = [
  { name: 'sqlite', skip: false as const, postgresUrl: undefined },
  { name: 'postgres', skip: postgres.skip, postgresUrl: postgres.url },
]

for (const engine of engines) {
  describe(`end users on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    let instant = Date.parse('2026-03-01T10:00:00.000Z')
    const admin = () => bearer(gateway.adminKey)
    const path = (user: string) => `/api/v1/end-users/${encodeURIComponent(user)}`

    before(async () => {
      gateway = await startTestGateway({ postgresUrl: engine.postgresUrl, clock: { now: () => new Date(instant) } })
    })
    after(() => gateway.close())

    async function register(user: unknown) {
      return gateway.inject({ method: 'POST', url: '/api/v1/end-users', headers: admin(), payload: { user } })
    }
    async function get(user: string) {
      return gateway.inject({ method: 'GET', url: path(user), headers: admin() })
    }
    async function list(query: string) {
      const response = await gateway.inject({ method: 'GET', url: `/api/v1/end-users?${query}`, headers: admin() })
      assert.equal(response.statusCode, 200, response.body)
      return response.json() as { data: EndUser[]; total_count: number }
    }
    function errorOf(response: { body: string }): string {
      return (JSON.parse(response.body) as { error: { message: string } }).error.message
    }

    test('register -> 201 {data}; again -> 409 "This tracking ID is already registered"', async () => {
      const created = await register('alice-001')
      assert.equal(created.statusCode, 201)
      assert.deepEqual(created.json(), {
        data: {
          user: 'alice-001',
          is_active: true,
          created_at: '2026-03-01T10:00:00.000Z',
          updated_at: '2026-03-01T10:00:00.000Z',
        },
      })
      const again = await register('alice-001')
      assert.equal(again.statusCode, 409)
      assert.deepEqual(again.json(), { error: { code: 409, message: 'This tracking ID is already registered' } })
    })

    test('the body allows only `user`, a string', async () => {
      for (const payload of [{ user: 'b', extra: 1 }, {}, { user: 5 }, { user: null }]) {
        const response = await gateway.inject({ method: 'POST', url: '/api/v1/end-users', headers: admin(), payload })
        assert.equal(response.statusCode, 400, JSON.stringify(payload))
      }
    })

    test('tracking strings: emoji, combining marks and case are kept exactly and told apart', async () => {
      for (const user of ['👩‍💻 dev', 'e\u0301', '\u00e9', 'Bob', 'bob', 'a/b?c#d%e&f=g+h']) {
        assert.equal((await register(user)).statusCode, 201, user)
        const fetched = await get(user)
        assert.equal(fetched.statusCode, 200, user)
        assert.equal((fetched.json() as { data: EndUser }).data.user, user)
      }
      assert.equal((await list('user=bob')).data.length, 1)
      assert.equal((await list(`user=${encodeURIComponent('e\u0301')}`)).data[0]?.user, 'e\u0301')
    })

    test('512 characters pass (ASCII and emoji, also by path); 513 fail', async () => {
      const emoji = '😀'.repeat(512)
      for (const user of ['x'.repeat(512), emoji]) assert.equal((await register(user)).statusCode, 201)
      assert.equal((await get(emoji)).statusCode, 200)
      for (const user of ['x'.repeat(513), '😀'.repeat(513)]) {
        const response = await register(user)
        assert.equal(response.statusCode, 400)
        assert.match(errorOf(response), /at most 512 characters \(Unicode code points\); it has 513/)
      }
    })

    test('NUL, surrounding whitespace, empty and lone surrogates are refused with 400', async () => {
      const cases: [string, RegExp][] = [
        ['a\u0000b', /NUL/],
        [' padded', /whitespace/],
        ['padded ', /whitespace/],
        ['\ttab', /whitespace/],
        ['', /empty/],
        ['x\uD800', /lone surrogate/],
      ]
      for (const [user, message] of cases) {
        const response = await register(user)
        assert.equal(response.statusCode, 400, JSON.stringify(user))
        assert.match(errorOf(response), message)
      }
      assert.equal((await register('inner space')).statusCode, 201)
    })

    test('path ids are URL-decoded; a percent-encoded lone surrogate or NUL gets 400 in the envelope', async () => {
      for (const raw of ['%ED%A0%80', 'a%ED%B0%80', '%00', '%20x', 'bad%', '%E0%A4%A']) {
        for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
          const response = await gateway.inject({
            method,
            url: `/api/v1/end-users/${raw}`,
            headers: admin(),
            ...(method === 'PATCH' ? { payload: { is_active: true } } : {}),
          })
          assert.equal(response.statusCode, 400, `${method} ${raw}`)
          const body = response.json() as { error: { code: number; message: string } }
          assert.equal(body.error.code, 400)
          assert.equal(typeof body.error.message, 'string')
        }
      }
      assert.match(
        errorOf(await gateway.inject({ method: 'GET', url: '/api/v1/end-users/%ED%A0%80', headers: admin() })),
        /lone surrogates such as %ED%A0%80/,
      )
    })

    test('deactivate (DELETE) -> 204, repeatable; the id is kept; PATCH reactivates', async () => {
      assert.equal((await register('carol')).statusCode, 201)
      instant += 60_000
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const deleted = await gateway.inject({ method: 'DELETE', url: path('carol'), headers: admin() })
        assert.equal(deleted.statusCode, 204)
        assert.equal(deleted.body, '')
      }
      const inactive = (await get('carol')).json() as { data: EndUser }
      assert.deepEqual(inactive.data, {
        user: 'carol',
        is_active: false,
        created_at: '2026-03-01T10:00:00.000Z',
        updated_at: '2026-03-01T10:01:00.000Z',
      })
      assert.equal((await register('carol')).statusCode, 409)
      assert.equal((await list('user=carol')).total_count, 0)
      assert.equal((await list('user=carol&include_inactive=true')).total_count, 1)

      instant += 60_000
      const reactivated = await gateway.inject({
        method: 'PATCH',
        url: path('carol'),
        headers: admin(),
        payload: { is_active: true },
      })
      assert.equal(reactivated.statusCode, 200)
      assert.deepEqual((reactivated.json() as { data: EndUser }).data, {
        user: 'carol',
        is_active: true,
        created_at: '2026-03-01T10:00:00.000Z',
        updated_at: '2026-03-01T10:02:00.000Z',
      })
      const deactivated = await gateway.inject({
        method: 'PATCH',
        url: path('carol'),
        headers: admin(),
        payload: { is_active: false },
      })
      assert.equal((deactivated.json() as { data: EndUser }).data.is_active, false)
    })

    test('PATCH takes exactly {is_active: boolean}', async () => {
      assert.equal((await register('dave')).statusCode, 201)
      for (const payload of [{}, { is_active: 'yes' }, { is_active: true, user: 'other' }]) {
        const response = await gateway.inject({ method: 'PATCH', url: path('dave'), headers: admin(), payload })
        assert.equal(response.statusCode, 400, JSON.stringify(payload))
      }
    })

    test('unknown ids -> 404 on GET, PATCH and DELETE', async () => {
      for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
        const response = await gateway.inject({
          method,
          url: path('nobody-here'),
          headers: admin(),
          ...(method === 'PATCH' ? { payload: { is_active: false } } : {}),
        })
        assert.equal(response.statusCode, 404, method)
        assert.match(errorOf(response), /No end user is registered with this tracking ID/)
      }
    })

    test('list: exact filter, include_inactive, total_count before pagination, limit <= 100', async () => {
      for (const user of ['page-1', 'page-2', 'page-3']) assert.equal((await register(user)).statusCode, 201)
      await gateway.inject({ method: 'DELETE', url: path('page-2'), headers: admin() })
      const everyone = await list('include_inactive=true&limit=100')
      const active = await list('limit=100')
      assert.equal(everyone.total_count - active.total_count, everyone.data.filter((user) => !user.is_active).length)
      assert.ok(active.data.every((user) => user.is_active))
      const page = await list('include_inactive=true&limit=2&offset=1')
      assert.equal(page.data.length, 2)
      assert.equal(page.total_count, everyone.total_count)
      assert.deepEqual(page.data, everyone.data.slice(1, 3))
      assert.equal((await list('user=page')).total_count, 0)
      assert.equal((await list('user=PAGE-1')).total_count, 0)
      for (const query of ['limit=101', 'limit=0', 'offset=-1', 'include_inactive=maybe']) {
        const response = await gateway.inject({ method: 'GET', url: `/api/v1/end-users?${query}`, headers: admin() })
        assert.equal(response.statusCode, 400, query)
      }
    })

    test('"." and "..": registrable, reachable through the list filter, refused by path with a pointer to it', async () => {
      for (const user of ['.', '..']) assert.equal((await register(user)).statusCode, 201)
      assert.deepEqual(
        (await list('user=.')).data.map((user) => user.user),
        ['.'],
      )
      assert.deepEqual(
        (await list('user=..')).data.map((user) => user.user),
        ['..'],
      )
      const base = await gateway.listen()
      for (const raw of ['.', '..', '%2E', '%2e%2E']) {
        for (const method of ['GET', 'PATCH', 'DELETE']) {
          const { status, body } = await rawRequest(
            base,
            method,
            `/api/v1/end-users/${raw}`,
            gateway.adminKey,
            method === 'PATCH' ? '{"is_active":false}' : undefined,
          )
          assert.equal(status, 400, `${method} ${raw}: ${body}`)
          assert.match(body, /cannot be addressed by path; find it with GET \/api\/v1\/end-users\?user=/)
        }
      }
      assert.equal((await list('user=.')).data[0]?.is_active, true)
    })

    test('management key only: other keys 403, no key 401', async () => {
      const inference = await mintApiKey(gateway, 'inference')
      for (const [method, url] of [
        ['GET', '/api/v1/end-users'],
        ['POST', '/api/v1/end-users'],
        ['GET', path('alice-001')],
        ['DELETE', path('alice-001')],
      ] as const) {
        assert.equal(
          (
            await gateway.inject({
              method,
              url,
              headers: bearer(inference.plaintext),
              payload: method === 'POST' ? { user: 'z' } : undefined,
            })
          ).statusCode,
          403,
        )
        assert.equal((await gateway.inject({ method, url })).statusCode, 401)
      }
    })
  })
}

/** A request whose path is sent byte for byte (fetch and inject would collapse dot segments). */
function rawRequest(
  base: string,
  method: string,
  path: string,
  key: string,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base)
    const headers: Record<string, string> = { authorization: `Bearer ${key}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const outgoing = httpRequest({ host: url.hostname, port: url.port, method, path, headers }, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}
