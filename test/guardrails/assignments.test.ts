// Guardrail key and member assignments over HTTP (api-reference §5.2) and the rules inference applies
// from them (allowed models, ignored providers, budgets, content filters, seen at a fake upstream), on
// SQLite and PostgreSQL.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { bearer, type TestGateway } from '../support/test-gateway.ts'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import {
  addOrganizationMember,
  call,
  engines,
  errorMessage,
  mintKey,
  type MintedKey,
} from '../workspaces/management-fixtures.ts'

type KeyAssignment = {
  id: string
  guardrail_id: string
  key_hash: string
  key_name: string
  key_label: string
  assigned_by: string | null
  created_at: string
}
type MemberAssignment = {
  id: string
  guardrail_id: string
  user_id: string
  organization_id: string
  assigned_by: string | null
  created_at: string
}

for (const engine of engines) {
  describe(`guardrail assignments on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    let upstream: FakeUpstream
    let first: string
    let second: string
    let keys: MintedKey[]
    let memberId: string

    async function createGuardrail(body: Record<string, unknown>): Promise<string> {
      const response = await call(gateway, 'POST', '/api/v1/guardrails', body)
      assert.equal(response.statusCode, 201, response.body)
      return (response.json() as { data: { id: string } }).data.id
    }

    before(async () => {
      upstream = await startFakeUpstream({ api: 'openai-chat' })
      gateway = await engine.start(modelsYaml(upstream.url))
      first = await createGuardrail({
        name: 'First',
        allowed_models: ['a/1', 'b/2'],
        limit_usd: 5,
        reset_interval: 'daily',
      })
      second = await createGuardrail({
        name: 'Second',
        allowed_models: ['b/2', 'c/3'],
        content_filter_builtins: [{ slug: 'email', action: 'redact' }],
      })
      memberId = await addOrganizationMember(gateway, `assigned-${engine.name}@example.com`)
      keys = [
        await mintKey(gateway, { name: 'key one', creatorUserId: memberId }),
        await mintKey(gateway, { name: 'key two' }),
        await mintKey(gateway, { name: 'key three' }),
      ]
    })
    after(async () => {
      await gateway.close()
      await upstream.close()
    })

    /** A chat completion with one of the keys; answers its status and the body the upstream received. */
    async function ask(key: MintedKey, model: string, content = 'hi', maxTokens = 1) {
      upstream.script({ type: 'completion', text: 'ok', usage: { input_tokens: 1, output_tokens: 0 } })
      const calls = upstream.requests.length
      const response = await gateway.inject({
        method: 'POST',
        url: '/api/v1/chat/completions',
        headers: { ...bearer(key.plaintext), 'content-type': 'application/json' },
        payload: { model, max_tokens: maxTokens, messages: [{ role: 'user', content }] },
      })
      const reached = upstream.requests.length > calls
      const body = reached
        ? (upstream.requests.at(-1)?.body as { model: string; messages: { content: string }[] })
        : null
      return { status: response.statusCode, body, text: response.body }
    }

    const keysUrl = (id: string) => `/api/v1/guardrails/${id}/assignments/keys`
    const membersUrl = (id: string) => `/api/v1/guardrails/${id}/assignments/members`

    test('assigning keys counts newly assigned keys; the list shows key name and label', async () => {
      const response = await call(gateway, 'POST', keysUrl(first), {
        key_hashes: [keys[0]!.hash, keys[1]!.hash, keys[1]!.hash],
      })
      assert.equal(response.statusCode, 200)
      assert.deepEqual(response.json(), { assigned_count: 2 })
      assert.deepEqual((await call(gateway, 'POST', keysUrl(first), { key_hashes: [keys[0]!.hash] })).json(), {
        assigned_count: 0,
      })
      const listed = (await call(gateway, 'GET', keysUrl(first))).json() as {
        data: KeyAssignment[]
        total_count: number
      }
      assert.equal(listed.total_count, 2)
      const one = listed.data.find((assignment) => assignment.key_hash === keys[0]!.hash)
      assert.equal(one?.key_name, 'key one')
      assert.match(one?.key_label ?? '', /\.\.\./)
      assert.equal(one?.guardrail_id, first)
      assert.equal(one?.assigned_by, gateway.gateway.bootstrap.ownerUserId)
      const page = (await call(gateway, 'GET', `${keysUrl(first)}?offset=1&limit=1`)).json() as {
        data: KeyAssignment[]
        total_count: number
      }
      assert.deepEqual(
        page.data.map((assignment) => assignment.id),
        [listed.data[1]!.id],
      )
    })

    test('a key holds one guardrail: assigning it elsewhere moves it', async () => {
      assert.deepEqual((await call(gateway, 'POST', keysUrl(second), { key_hashes: [keys[1]!.hash] })).json(), {
        assigned_count: 1,
      })
      const firstKeys = (await call(gateway, 'GET', keysUrl(first))).json() as { data: KeyAssignment[] }
      assert.deepEqual(
        firstKeys.data.map((assignment) => assignment.key_hash),
        [keys[0]!.hash],
      )
      const all = (await call(gateway, 'GET', '/api/v1/guardrails/assignments/keys')).json() as {
        data: KeyAssignment[]
        total_count: number
      }
      assert.equal(all.total_count, 2)
      assert.deepEqual(
        all.data.map((assignment) => [assignment.key_hash, assignment.guardrail_id]).sort(),
        [
          [keys[0]!.hash, first],
          [keys[1]!.hash, second],
        ].sort(),
      )
    })

    test('unknown keys are named in a 404; keys of another workspace and default guardrails are refused', async () => {
      const unknown = await call(gateway, 'POST', keysUrl(first), { key_hashes: [keys[2]!.hash, 'no-such-hash'] })
      assert.equal(unknown.statusCode, 404)
      assert.match(errorMessage(unknown), /no-such-hash/)
      const workspace = (
        await call(gateway, 'POST', '/api/v1/workspaces', { name: 'Elsewhere', slug: 'elsewhere' })
      ).json() as { data: { id: string; default_guardrail_id: string } }
      const foreign = await mintKey(gateway, { workspaceId: workspace.data.id })
      const refused = await call(gateway, 'POST', keysUrl(first), { key_hashes: [foreign.hash] })
      assert.equal(refused.statusCode, 400)
      assert.match(errorMessage(refused), /another workspace/)
      const toDefault = await call(gateway, 'POST', keysUrl(workspace.data.default_guardrail_id), {
        key_hashes: [foreign.hash],
      })
      assert.equal(toDefault.statusCode, 400)
      assert.match(errorMessage(toDefault), /workspace default guardrail/)
      assert.equal(
        (await call(gateway, 'POST', keysUrl('00000000-0000-4000-8000-000000000000'), { key_hashes: [foreign.hash] }))
          .statusCode,
        404,
      )
      assert.equal((await call(gateway, 'POST', keysUrl(first), { key_hashes: [] })).statusCode, 400)
    })

    test('bulk remove takes 1..500 non-empty hashes and counts what it removed', async () => {
      const removeUrl = `${keysUrl(first)}/remove`
      assert.equal((await call(gateway, 'POST', removeUrl, { key_hashes: [] })).statusCode, 400)
      assert.equal(
        (await call(gateway, 'POST', removeUrl, { key_hashes: Array.from({ length: 501 }, (_, index) => `h${index}`) }))
          .statusCode,
        400,
      )
      assert.equal((await call(gateway, 'POST', removeUrl, { key_hashes: [''] })).statusCode, 400)
      assert.equal((await call(gateway, 'POST', removeUrl, {})).statusCode, 400)
      const fiveHundred = [keys[0]!.hash, ...Array.from({ length: 499 }, (_, index) => `h${index}`)]
      const removed = await call(gateway, 'POST', removeUrl, { key_hashes: fiveHundred })
      assert.equal(removed.statusCode, 200)
      assert.deepEqual(removed.json(), { unassigned_count: 1 })
      assert.deepEqual((await call(gateway, 'POST', removeUrl, { key_hashes: [keys[0]!.hash] })).json(), {
        unassigned_count: 0,
      })
      assert.equal(
        (
          await call(
            gateway,
            'POST',
            `/api/v1/guardrails/00000000-0000-4000-8000-000000000000/assignments/keys/remove`,
            { key_hashes: ['x'] },
          )
        ).statusCode,
        404,
      )
    })

    test('member assignments: assign, move, list, remove', async () => {
      assert.deepEqual((await call(gateway, 'POST', membersUrl(first), { member_user_ids: [memberId] })).json(), {
        assigned_count: 1,
      })
      const listed = (await call(gateway, 'GET', membersUrl(first))).json() as {
        data: MemberAssignment[]
        total_count: number
      }
      assert.equal(listed.total_count, 1)
      assert.equal(listed.data[0]?.user_id, memberId)
      assert.equal(listed.data[0]?.organization_id, gateway.gateway.bootstrap.organizationId)
      const unknown = await call(gateway, 'POST', membersUrl(first), { member_user_ids: ['ghost-user'] })
      assert.equal(unknown.statusCode, 404)
      assert.match(errorMessage(unknown), /ghost-user/)
      assert.equal((await call(gateway, 'POST', membersUrl(first), { member_user_ids: [] })).statusCode, 400)
      assert.deepEqual(
        (
          await call(gateway, 'POST', membersUrl(second), {
            member_user_ids: [memberId, gateway.gateway.bootstrap.ownerUserId],
          })
        ).json(),
        { assigned_count: 2 },
      )
      assert.deepEqual((await call(gateway, 'GET', membersUrl(first))).json(), { data: [], total_count: 0 })
      const all = (await call(gateway, 'GET', '/api/v1/guardrails/assignments/members?limit=1')).json() as {
        data: MemberAssignment[]
        total_count: number
      }
      assert.equal(all.total_count, 2)
      assert.equal(all.data.length, 1)
      assert.deepEqual(
        (
          await call(gateway, 'POST', `${membersUrl(second)}/remove`, {
            member_user_ids: [gateway.gateway.bootstrap.ownerUserId],
          })
        ).json(),
        { unassigned_count: 1 },
      )
      assert.equal(
        (await call(gateway, 'POST', `${membersUrl(second)}/remove`, { member_user_ids: [] })).statusCode,
        400,
      )
    })

    test('inference combines key, creator-member and workspace-default guardrails', async () => {
      await call(gateway, 'POST', keysUrl(first), { key_hashes: [keys[0]!.hash] })
      const workspace = (await call(gateway, 'GET', '/api/v1/workspaces/default')).json() as {
        data: { default_guardrail_id: string }
      }
      await call(gateway, 'PATCH', `/api/v1/guardrails/${workspace.data.default_guardrail_id}`, {
        ignored_providers: ['cheapo'],
        limit_usd: 50,
        reset_interval: 'monthly',
      })
      await gateway.drained()
      // key one: first (key), second (its creator's), the workspace default.
      for (const model of ['a/1', 'c/3']) assert.equal((await ask(keys[0]!, model)).status, 403, model)
      const allowed = await ask(keys[0]!, 'b/2', 'write to ann@example.com')
      assert.equal(allowed.status, 200, allowed.text)
      assert.equal(allowed.body?.model, 'b2-acme', 'cheapo is ignored')
      assert.doesNotMatch(allowed.body?.messages[0]?.content ?? '', /ann@example\.com/, 'the email is redacted')
      const overBudget = await ask(keys[0]!, 'b/2', 'hi', 6)
      assert.equal(overBudget.status, 402, 'first holds $5 a day; $6 is reserved')
      assert.equal(overBudget.body, null)

      await call(gateway, 'POST', `${keysUrl(first)}/remove`, { key_hashes: [keys[0]!.hash] })
      await call(gateway, 'PATCH', `/api/v1/guardrails/${second}`, { allowed_models: null })
      await gateway.drained()
      assert.equal((await ask(keys[0]!, 'a/1')).status, 200, 'no guardrail restricts models now')
      assert.equal((await ask(keys[0]!, 'b/2', 'hi', 6)).status, 200, 'only the $50 workspace budget holds')
      const stillSecond = await ask(keys[0]!, 'b/2', 'write to ann@example.com')
      assert.doesNotMatch(stillSecond.body?.messages[0]?.content ?? '', /ann@example\.com/)
      await call(gateway, 'DELETE', `/api/v1/guardrails/${second}`)
      await gateway.drained()
      const unfiltered = await ask(keys[0]!, 'b/2', 'write to ann@example.com')
      assert.match(unfiltered.body?.messages[0]?.content ?? '', /ann@example\.com/, 'the member guardrail is gone')
      const third = await ask(keys[2]!, 'b/2', 'write to ann@example.com')
      assert.equal(third.body?.model, 'b2-acme', 'the workspace default still ignores cheapo')
      assert.match(third.body?.messages[0]?.content ?? '', /ann@example\.com/)
    })
  })
}

/** a/1, b/2 (cheaper at cheapo) and c/3 on one fake upstream; input is free, output $1 a token at acme. */
function modelsYaml(url: string): string {
  const endpoint = (provider: string, id: string, completion: string) =>
    `      - { provider: ${provider}, upstream_model_id: ${id}, pricing: { prompt: "0", completion: "${completion}" } }\n`
  const model = (slug: string, ...endpoints: string[]) => `  - slug: ${slug}\n    endpoints:\n${endpoints.join('')}`
  return (
    `providers:\n  - { slug: acme, api: openai-chat, base_url: "${url}" }\n` +
    `  - { slug: cheapo, api: openai-chat, base_url: "${url}" }\nmodels:\n` +
    model('a/1', endpoint('acme', 'a1-acme', '1')) +
    model('b/2', endpoint('cheapo', 'b2-cheapo', '0.5'), endpoint('acme', 'b2-acme', '1')) +
    model('c/3', endpoint('acme', 'c3-acme', '1'))
  )
}
