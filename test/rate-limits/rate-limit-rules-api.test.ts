// The rate-limit rule API on both stores: create on a key or a workspace (all models or one), the
// validation of every body, conflicts, PATCH and DELETE, the key object's `rate_limits` and
// `workspace_rate_limits`, and rules removed with their key.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { postgresTarget } from '../support/test-services.ts'
import { bearer, startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { holdCacheReads } from '../support/held-cache-reads.ts'

const postgres = postgresTarget()
const engines = [
  { name: 'sqlite', skip: false as const, start: () => startTestGateway() },
  { name: 'postgres', skip: postgres.skip, start: () => startTestGateway({ postgresUrl: postgres.url! }) },
]

for (const engine of engines) {
  describe(`rate-limit rules API on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    before(async () => (gateway = await engine.start()))
    after(() => gateway.close())

    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      gateway.inject({ method, url, headers: bearer(gateway.adminKey), ...(payload === undefined ? {} : { payload }) })

    async function newKey(name: string): Promise<{ key: string; hash: string }> {
      const created = await call('POST', '/api/v1/keys', { name })
      assert.equal(created.statusCode, 201, created.body)
      const json = created.json() as { key: string; data: { hash: string } }
      return { key: json.key, hash: json.data.hash }
    }

    test('create on a key and a workspace, list, get, patch and delete', async () => {
      const { hash } = await newKey('limited')
      const workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
      const onKey = await call('POST', '/api/v1/rate-limits', { key_hash: hash, requests_per_minute: 10 })
      assert.equal(onKey.statusCode, 201, onKey.body)
      const rule = (onKey.json() as { data: Record<string, unknown> }).data
      assert.equal(rule.scope, 'key')
      assert.equal(rule.key_hash, hash)
      assert.equal(rule.workspace_id, workspaceId)
      assert.equal(rule.model, null)
      assert.equal(rule.requests_per_minute, 10)
      assert.equal(rule.tokens_per_minute, null)
      const perModel = await call('POST', '/api/v1/rate-limits', {
        workspace_id: workspaceId,
        model: 'test/model',
        tokens_per_minute: 1000,
      })
      assert.equal(perModel.statusCode, 201, perModel.body)
      const modelRule = (perModel.json() as { data: { id: string; scope: string; key_hash: string | null } }).data
      assert.equal(modelRule.scope, 'workspace')
      assert.equal(modelRule.key_hash, null)

      const ofKey = (await call('GET', `/api/v1/rate-limits?key_hash=${hash}`)).json() as { data: { id: string }[] }
      assert.deepEqual(
        ofKey.data.map((row) => row.id),
        [rule.id],
      )
      const ofWorkspace = (await call('GET', `/api/v1/rate-limits?workspace_id=${workspaceId}`)).json() as {
        data: unknown[]
      }
      assert.equal(ofWorkspace.data.length >= 2, true)
      assert.equal((await call('GET', `/api/v1/rate-limits/${modelRule.id}`)).statusCode, 200)

      const patched = await call('PATCH', `/api/v1/rate-limits/${rule.id}`, { tokens_per_minute: 500 })
      assert.equal(patched.statusCode, 200, patched.body)
      assert.deepEqual(
        [
          (patched.json() as { data: { requests_per_minute: number } }).data.requests_per_minute,
          (patched.json() as { data: { tokens_per_minute: number } }).data.tokens_per_minute,
        ],
        [10, 500],
      )
      const deleted = await call('DELETE', `/api/v1/rate-limits/${modelRule.id}`)
      assert.deepEqual(deleted.json(), { deleted: true })
      assert.equal((await call('GET', `/api/v1/rate-limits/${modelRule.id}`)).statusCode, 404)
    })

    test('the key object (get and list) shows its rules, and deleting the key deletes them', async () => {
      const { hash } = await newKey('shown')
      const created = await call('POST', '/api/v1/rate-limits', {
        key_hash: hash,
        model: 'test/model',
        requests_per_minute: 3,
      })
      const ruleId = (created.json() as { data: { id: string } }).data.id
      const everyModel = await call('POST', '/api/v1/rate-limits', { key_hash: hash, tokens_per_minute: 9000 })
      const everyModelId = (everyModel.json() as { data: { id: string } }).data.id
      const expected = [
        { id: everyModelId, model: null, requests_per_minute: null, tokens_per_minute: 9000 },
        { id: ruleId, model: 'test/model', requests_per_minute: 3, tokens_per_minute: null },
      ]
      const byModel = (rules: { model: string | null }[]) =>
        [...rules].sort((a, b) => String(a.model).localeCompare(String(b.model)))
      const key = (await call('GET', `/api/v1/keys/${hash}`)).json() as {
        data: { rate_limits: { model: string | null }[] }
      }
      assert.deepEqual(byModel(key.data.rate_limits), expected)
      const listed = (await call('GET', '/api/v1/keys')).json() as {
        data: { hash: string; rate_limits: { model: string | null }[] }[]
      }
      assert.deepEqual(byModel(listed.data.find((entry) => entry.hash === hash)!.rate_limits), expected)
      assert.equal((await call('DELETE', `/api/v1/keys/${hash}`)).statusCode, 200)
      assert.equal((await call('GET', `/api/v1/rate-limits/${ruleId}`)).statusCode, 404)
    })

    test("the key object shows its workspace's rules too, and only its own workspace's", async () => {
      const created = await call('POST', '/api/v1/workspaces', { name: 'Limited team', slug: 'limited-team' })
      assert.equal(created.statusCode, 201, created.body)
      const workspaceId = (created.json() as { data: { id: string } }).data.id
      const member = await call('POST', '/api/v1/keys', { name: 'member', workspace_id: workspaceId })
      const memberHash = (member.json() as { data: { hash: string } }).data.hash
      const outsider = await newKey('outsider')
      const shared = await call('POST', '/api/v1/rate-limits', { workspace_id: workspaceId, requests_per_minute: 7 })
      const sharedId = (shared.json() as { data: { id: string } }).data.id
      const perModel = await call('POST', '/api/v1/rate-limits', {
        workspace_id: workspaceId,
        model: 'test/model',
        tokens_per_minute: 700,
      })
      const perModelId = (perModel.json() as { data: { id: string } }).data.id
      const own = await call('POST', '/api/v1/rate-limits', { key_hash: memberHash, requests_per_minute: 2 })
      const ownId = (own.json() as { data: { id: string } }).data.id
      type Shown = {
        hash: string
        rate_limits: { id: string }[]
        workspace_rate_limits: { id: string; model: string | null }[]
      }
      const shownKey = (await call('GET', `/api/v1/keys/${memberHash}`)).json() as { data: Shown }
      const listed = (await call('GET', `/api/v1/keys?workspace_id=${workspaceId}`)).json() as { data: Shown[] }
      for (const key of [shownKey.data, listed.data.find((entry) => entry.hash === memberHash)!]) {
        assert.deepEqual(
          key.rate_limits.map((rule) => rule.id),
          [ownId],
        )
        assert.deepEqual(
          [...key.workspace_rate_limits].sort((a, b) => String(a.model).localeCompare(String(b.model))),
          [
            { id: sharedId, model: null, requests_per_minute: 7, tokens_per_minute: null },
            { id: perModelId, model: 'test/model', requests_per_minute: null, tokens_per_minute: 700 },
          ],
        )
      }
      const other = (await call('GET', `/api/v1/keys/${outsider.hash}`)).json() as { data: Shown }
      assert.equal(
        other.data.workspace_rate_limits.some((rule) => rule.id === sharedId || rule.id === perModelId),
        false,
      )
      await call('DELETE', `/api/v1/rate-limits/${sharedId}`)
      const after = (await call('GET', `/api/v1/keys/${memberHash}`)).json() as { data: Shown }
      assert.deepEqual(
        after.data.workspace_rate_limits.map((rule) => rule.id),
        [perModelId],
      )
    })

    test("a rule's create, update and delete answer once this instance's rule cache holds the change", async () => {
      const { hash } = await newKey('read back')
      const hold = holdCacheReads(gateway.internals.caches.repositories.rateLimitRules, 'find', 'rate-limit-rule-cache')
      try {
        const answered = async (pending: Promise<{ statusCode: number; body: string }>, status: number) => {
          const reply = await hold.answeredAfter(pending)
          assert.equal(reply.statusCode, status, reply.body)
          return reply
        }
        const rulesOfKey = () => gateway.internals.caches.rateLimitRules.rulesOf('key', hash)
        const created = await answered(
          call('POST', '/api/v1/rate-limits', { key_hash: hash, requests_per_minute: 3 }),
          201,
        )
        const id = (JSON.parse(created.body) as { data: { id: string } }).data.id
        assert.deepEqual(
          rulesOfKey().map((rule) => [rule.id, rule.requestsPerMinute]),
          [[id, 3]],
        )
        await answered(call('PATCH', `/api/v1/rate-limits/${id}`, { requests_per_minute: 4 }), 200)
        assert.deepEqual(
          rulesOfKey().map((rule) => rule.requestsPerMinute),
          [4],
        )
        await answered(call('DELETE', `/api/v1/rate-limits/${id}`), 200)
        assert.deepEqual(rulesOfKey(), [])
      } finally {
        hold.restore()
      }
    })

    test('bad bodies are refused with a 400 or 404 that says what was wrong', async () => {
      const { hash } = await newKey('bad bodies')
      const cases: [object, number, RegExp][] = [
        [{ requests_per_minute: 5 }, 400, /exactly one of key_hash .* or workspace_id/],
        [{ key_hash: hash, workspace_id: 'x', requests_per_minute: 5 }, 400, /exactly one of key_hash/],
        [{ key_hash: hash }, 400, /needs requests_per_minute or tokens_per_minute/],
        [{ key_hash: hash, requests_per_minute: null, tokens_per_minute: null }, 400, /needs requests_per_minute/],
        [{ key_hash: hash, requests_per_minute: 0 }, 400, /requests_per_minute/],
        [{ key_hash: hash, requests_per_minute: 1.5 }, 400, /requests_per_minute/],
        [{ key_hash: 'nope', requests_per_minute: 5 }, 404, /API key nope not found/],
        [{ workspace_id: 'nope', requests_per_minute: 5 }, 404, /Workspace nope not found/],
        [{ key_hash: hash, requests_per_minute: 5, burst: 3 }, 400, /burst/],
      ]
      for (const [payload, status, message] of cases) {
        const reply = await call('POST', '/api/v1/rate-limits', payload)
        assert.equal(reply.statusCode, status, `${JSON.stringify(payload)}: ${reply.body}`)
        assert.match((reply.json() as { error: { message: string } }).error.message, message, JSON.stringify(payload))
      }
    })

    test('one rule per key (or workspace) and model: a second is a 409 naming the first; PATCH keeps a limit', async () => {
      const { hash } = await newKey('conflicts')
      const first = await call('POST', '/api/v1/rate-limits', { key_hash: hash, requests_per_minute: 5 })
      const id = (first.json() as { data: { id: string } }).data.id
      const second = await call('POST', '/api/v1/rate-limits', { key_hash: hash, tokens_per_minute: 5 })
      assert.equal(second.statusCode, 409, second.body)
      assert.match(
        (second.json() as { error: { message: string } }).error.message,
        new RegExp(`PATCH /api/v1/rate-limits/${id}`),
      )
      const other = await call('POST', '/api/v1/rate-limits', { key_hash: hash, model: 'a/b', tokens_per_minute: 5 })
      assert.equal(other.statusCode, 201, 'another model is another rule')
      const cleared = await call('PATCH', `/api/v1/rate-limits/${id}`, { requests_per_minute: null })
      assert.equal(cleared.statusCode, 400, cleared.body)
      assert.equal((await call('PATCH', '/api/v1/rate-limits/rl_missing', { requests_per_minute: 1 })).statusCode, 404)
      assert.equal((await call('DELETE', '/api/v1/rate-limits/rl_missing')).statusCode, 404)
    })

    test('inference keys cannot read or write rules', async () => {
      const { key } = await newKey('not management')
      const reply = await gateway.inject({ method: 'GET', url: '/api/v1/rate-limits', headers: bearer(key) })
      assert.equal(reply.statusCode, 403, reply.body)
    })
  })
}
