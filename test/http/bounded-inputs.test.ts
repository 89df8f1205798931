// Out-of-range numbers and oversized arrays are refused with a 400 in the error envelope, cheaply, on
// every store: no list offset reaches the store's integer (a 500 before), and 100,000 names to copy are
// refused by their count before anything looks at each name (229 s of blocked event loop before).
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { call, createInternVia, mintKey, noRuntime, type CallAnswer } from '../interns/intern-test-kit.ts'

const huge = '9223372036854775807'
const largestOffset = 2147483647

/** Offset-style list routes a management key reads; ids need not exist (the query is refused first). */
const managementLists = [
  '/api/v1/workspaces',
  '/api/v1/workspaces/no-such-workspace/members',
  '/api/v1/organization/members',
  '/api/v1/keys',
  '/api/v1/guardrails',
  '/api/v1/guardrails/assignments/keys',
  '/api/v1/guardrails/assignments/members',
  '/api/v1/guardrails/no-such-guardrail/assignments/keys',
  '/api/v1/guardrails/no-such-guardrail/assignments/members',
  '/api/v1/observability/destinations',
  '/api/v1/end-users',
  '/api/v1/presets',
  '/api/v1/presets/no-such-preset/versions',
]
/** Routes whose ids must exist: the largest offset answers 200 with an empty page on them. */
const unscopedLists = managementLists.filter((url) => !url.includes('no-such'))

function assertRefused(answer: CallAnswer<unknown>, parameter: string, where: string): void {
  assert.equal(answer.status, 400, `${where}: ${answer.text}`)
  assert.equal(answer.json.error.code, 400, where)
  assert.match(answer.json.error.message, new RegExp(`querystring\\.${parameter}: must be <= \\d+`), where)
}

for (const [engine, url] of [
  ['sqlite', undefined],
  ['postgres', postgresTarget().url],
] as const) {
  const skip = engine === 'postgres' ? postgresTarget().skip : false
  describe(`bounded inputs on ${engine}`, { skip }, () => {
    let gateway: TestGateway
    let workspaceKey: string

    before(async () => {
      gateway = await startTestGateway(url === undefined ? { yaml: noRuntime } : { postgresUrl: url, yaml: noRuntime })
      workspaceKey = await mintKey(gateway, 'inference', gateway.gateway.bootstrap.defaultWorkspaceId)
    })
    after(() => gateway.close())

    test(`an offset or limit past its maximum is a 400 naming it, the largest offset an empty page (${engine})`, async () => {
      for (const list of managementLists) {
        for (const query of [`offset=${huge}`, 'offset=1e300', `offset=${largestOffset + 1}`]) {
          const answer = await call<unknown>(gateway, gateway.adminKey, { method: 'GET', url: `${list}?${query}` })
          assertRefused(answer, 'offset', `${list}?${query}`)
        }
        const limit = await call<unknown>(gateway, gateway.adminKey, { method: 'GET', url: `${list}?limit=${huge}` })
        if (list !== '/api/v1/keys') assertRefused(limit, 'limit', `${list}?limit=${huge}`)
      }
      for (const list of unscopedLists) {
        const answer = await call(gateway, gateway.adminKey, { method: 'GET', url: `${list}?offset=${largestOffset}` })
        assert.equal(answer.status, 200, `${list}: ${answer.text}`)
        assert.deepEqual(answer.json.data, [], list)
      }
    })

    test(`workspace-key lists: vault, interns and batches refuse out-of-range numbers with a 400 (${engine})`, async () => {
      for (const [list, parameter] of [
        ['/api/v1/vault/secrets', 'offset'],
        ['/api/v1/vault/secrets', 'limit'],
        ['/api/v1/interns', 'limit'],
        ['/api/v1/batches', 'limit'],
      ] as const) {
        const answer = await call<unknown>(gateway, workspaceKey, {
          method: 'GET',
          url: `${list}?${parameter}=${huge}`,
        })
        assertRefused(answer, parameter, `${list}?${parameter}`)
      }
      for (const field of ['created_after', 'created_before']) {
        const answer = await call<unknown>(gateway, workspaceKey, {
          method: 'GET',
          url: `/api/v1/batches?${field}=99999999999999999999`,
        })
        assert.equal(answer.status, 400, answer.text)
        assert.match(answer.json.error.message, new RegExp(`^${field}: "99999999999999999999" is neither unix seconds`))
      }
    })

    test(`a guardrail's or a destination's lists past their bounds are a 400 naming them (${engine})`, async () => {
      const slugs = Array.from({ length: 100_001 }, (_, index) => `vendor/model-${index}`)
      const guardrail = await call<unknown>(gateway, gateway.adminKey, {
        method: 'POST',
        url: '/api/v1/guardrails',
        body: { name: 'too many', allowed_models: slugs },
      })
      assert.equal(guardrail.status, 400, guardrail.text)
      assert.match(guardrail.json.error.message, /body\.allowed_models: must not have more than 1000 items/)
      const rules = [{ field: 'model', operator: 'equals', value: 'x' }]
      const destination = await call<unknown>(gateway, gateway.adminKey, {
        method: 'POST',
        url: '/api/v1/observability/destinations',
        body: {
          name: 'too many groups',
          type: 'webhook',
          config: { url: 'https://example.com/hook' },
          filter_rules: { groups: Array.from({ length: 21 }, () => ({ rules })) },
        },
      })
      assert.equal(destination.status, 400, destination.text)
      assert.match(destination.json.error.message, /body\.filter_rules\.groups: must not have more than 20 items/)
    })

    test(`copying 100,000 names is refused by their count at once; a repeated name is a 400 naming it (${engine})`, async () => {
      const intern = await createInternVia(gateway, workspaceKey, { name: 'copier' })
      const copy = `/api/v1/vault/interns/${intern.id}/secrets/copy`
      const names = Array.from({ length: 100_000 }, () => 'x')
      const refused = await call<unknown>(gateway, workspaceKey, { method: 'POST', url: copy, body: { names } })
      assert.equal(refused.status, 400, refused.text)
      assert.equal(
        refused.json.error.message,
        'Invalid request parameters: body.names: must not have more than 100 items',
      )
      // That the count is checked before any item is read (229 s before, uniqueItems first) is counted, not
      // timed, in src/http/bounded-validator-compiler.test.ts.

      const repeated = await call<unknown>(gateway, workspaceKey, {
        method: 'POST',
        url: copy,
        body: { names: ['alpha', 'beta', 'alpha'] },
      })
      assert.equal(repeated.status, 400, repeated.text)
      assert.match(repeated.json.error.message, /body\.names: "alpha" is listed more than once/)
    })
  })
}
