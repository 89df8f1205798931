// Guardrail CRUD over HTTP (api-reference §5), on SQLite and PostgreSQL.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { bearer, type TestGateway } from '../support/test-gateway.ts'
import { call, engines, errorMessage, mintKey } from '../workspaces/management-fixtures.ts'

type Guardrail = Record<string, unknown> & { id: string; name: string; workspace_id: string | null }

for (const engine of engines) {
  describe(`guardrails on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    before(async () => {
      gateway = await engine.start()
    })
    after(() => gateway.close())

    async function create(body: Record<string, unknown>): Promise<Guardrail> {
      const response = await call(gateway, 'POST', '/api/v1/guardrails', body)
      assert.equal(response.statusCode, 201, response.body)
      return (response.json() as { data: Guardrail }).data
    }

    async function createStatus(body: Record<string, unknown>): Promise<number> {
      return (await call(gateway, 'POST', '/api/v1/guardrails', body)).statusCode
    }

    test('401 without a key, 403 with an inference key, 404 for an unknown guardrail', async () => {
      assert.equal((await gateway.inject({ method: 'GET', url: '/api/v1/guardrails' })).statusCode, 401)
      const inference = await mintKey(gateway)
      assert.equal(
        (await gateway.inject({ method: 'GET', url: '/api/v1/guardrails', headers: bearer(inference.plaintext) }))
          .statusCode,
        403,
      )
      const unknown = '00000000-0000-4000-8000-000000000000'
      const missing = await call(gateway, 'GET', `/api/v1/guardrails/${unknown}`)
      assert.equal(missing.statusCode, 404)
      assert.match(errorMessage(missing), new RegExp(unknown))
      assert.equal((await call(gateway, 'PATCH', `/api/v1/guardrails/${unknown}`, { name: 'x' })).statusCode, 404)
      assert.equal((await call(gateway, 'DELETE', `/api/v1/guardrails/${unknown}`)).statusCode, 404)
    })

    test('create returns 201 with the full guardrail object', async () => {
      const guardrail = await create({
        name: 'Support',
        description: 'For the support team',
        limit_usd: 25,
        reset_interval: 'weekly',
        include_byok_in_budgets: true,
        allowed_models: ['acme/fast-1', 'acme/fast-1', 'acme/smart-2'],
        ignored_providers: ['cheapo'],
        allowed_data_regions: ['europe'],
        content_filters: [
          { pattern: 'ticket-\\d+', action: 'redact', label: '[TICKET]' },
          { pattern: 'secret', action: 'block' },
        ],
        content_filter_builtins: [
          { slug: 'email', action: 'redact', label: 'ignored' },
          { slug: 'regex-prompt-injection', action: 'block', scan_scope: 'user_only' },
          { slug: 'secrets', action: 'flag' },
        ],
        enforce_zdr_anthropic: true,
        enable_free_model_training: false,
      })
      const { id, created_at, workspace_id, ...rest } = guardrail
      assert.match(id, /^[0-9a-f-]{36}$/)
      assert.equal(workspace_id, gateway.gateway.bootstrap.defaultWorkspaceId)
      assert.match(String(created_at), /Z$/)
      assert.deepEqual(rest, {
        name: 'Support',
        description: 'For the support team',
        updated_at: null,
        limit_usd: 25,
        reset_interval: 'weekly',
        include_byok_in_budgets: true,
        allowed_models: ['acme/fast-1', 'acme/smart-2'],
        ignored_models: null,
        allowed_providers: null,
        ignored_providers: ['cheapo'],
        allowed_data_regions: ['europe'],
        content_filters: [
          { pattern: 'ticket-\\d+', action: 'redact', label: '[TICKET]' },
          { pattern: 'secret', action: 'block', label: null },
        ],
        content_filter_builtins: [
          { slug: 'email', action: 'redact', label: '[EMAIL]' },
          { slug: 'regex-prompt-injection', action: 'block', label: '[PROMPT_INJECTION]', scan_scope: 'user_only' },
          { slug: 'secrets', action: 'flag', label: '[SECRET]' },
        ],
        enforce_zdr: null,
        enforce_zdr_anthropic: true,
        enforce_zdr_openai: null,
        enforce_zdr_google: null,
        enforce_zdr_xai: null,
        enforce_zdr_other: null,
        enable_free_model_publication: null,
        enable_free_model_training: false,
        enable_paid_model_training: null,
      })
      assert.deepEqual((await call(gateway, 'GET', `/api/v1/guardrails/${id}`)).json(), { data: guardrail })
    })

    test('name 1..200, description up to 1000', async () => {
      assert.equal(await createStatus({ name: 'n'.repeat(200) }), 201)
      assert.equal(await createStatus({ name: 'n'.repeat(201) }), 400)
      assert.equal(await createStatus({ name: '' }), 400)
      assert.equal(await createStatus({}), 400)
      assert.equal(await createStatus({ name: 'd', description: 'd'.repeat(1000) }), 201)
      assert.equal(await createStatus({ name: 'd', description: 'd'.repeat(1001) }), 400)
      assert.equal(await createStatus({ name: 'd', colour: 'red' }), 400)
    })

    test('limit_usd and reset_interval must be sent together; limit_usd > 0', async () => {
      const alone = await call(gateway, 'POST', '/api/v1/guardrails', { name: 'b', limit_usd: 5 })
      assert.equal(alone.statusCode, 400)
      assert.match(errorMessage(alone), /limit_usd and reset_interval must be sent together/)
      assert.equal(await createStatus({ name: 'b', reset_interval: 'daily' }), 400)
      assert.equal(await createStatus({ name: 'b', limit_usd: 0, reset_interval: 'daily' }), 400)
      assert.equal(await createStatus({ name: 'b', limit_usd: 5, reset_interval: 'hourly' }), 400)
      assert.equal(await createStatus({ name: 'b', limit_usd: null, reset_interval: 'daily' }), 400)
      const lifetime = await create({ name: 'b', limit_usd: 5, reset_interval: null })
      assert.equal(lifetime.limit_usd, 5)
      assert.equal(lifetime.reset_interval, null)
      assert.equal(await createStatus({ name: 'b', limit_usd: null, reset_interval: null }), 201)
    })

    test('array fields take at least one item, or null', async () => {
      const fields: Record<string, unknown> = {
        allowed_models: ['m'],
        ignored_models: ['m'],
        allowed_providers: ['p'],
        ignored_providers: ['p'],
        allowed_data_regions: ['us'],
        content_filters: [{ pattern: 'x', action: 'flag' }],
        content_filter_builtins: [{ slug: 'ssn', action: 'flag' }],
      }
      for (const [field, value] of Object.entries(fields)) {
        assert.equal(await createStatus({ name: 'a', [field]: [] }), 400, `${field} empty`)
        assert.equal(await createStatus({ name: 'a', [field]: null }), 201, `${field} null`)
        assert.equal(await createStatus({ name: 'a', [field]: value }), 201, `${field} one item`)
      }
      assert.equal(await createStatus({ name: 'a', allowed_models: [''] }), 400)
      assert.equal(await createStatus({ name: 'a', allowed_data_regions: ['mars'] }), 400)
    })

    test('content filters: valid regex, action, label up to 100; builtins from the list, scan_scope only for prompt injection', async () => {
      const invalid = await call(gateway, 'POST', '/api/v1/guardrails', {
        name: 'f',
        content_filters: [{ pattern: 'a(b', action: 'block' }],
      })
      assert.equal(invalid.statusCode, 400)
      assert.match(errorMessage(invalid), /content_filters\[0\]\.pattern is not a valid regular expression/)
      assert.equal(await createStatus({ name: 'f', content_filters: [{ pattern: '', action: 'block' }] }), 400)
      assert.equal(await createStatus({ name: 'f', content_filters: [{ pattern: 'x', action: 'delete' }] }), 400)
      assert.equal(
        await createStatus({
          name: 'f',
          content_filters: [{ pattern: 'x', action: 'redact', label: 'l'.repeat(100) }],
        }),
        201,
      )
      assert.equal(
        await createStatus({
          name: 'f',
          content_filters: [{ pattern: 'x', action: 'redact', label: 'l'.repeat(101) }],
        }),
        400,
      )
      assert.equal(
        await createStatus({ name: 'f', content_filter_builtins: [{ slug: 'passport', action: 'block' }] }),
        400,
      )
      assert.equal(
        await createStatus({
          name: 'f',
          content_filter_builtins: [{ slug: 'email', action: 'block', scan_scope: 'user_only' }],
        }),
        400,
      )
      assert.equal(
        await createStatus({
          name: 'f',
          content_filter_builtins: [
            { slug: 'email', action: 'block' },
            { slug: 'email', action: 'redact' },
          ],
        }),
        400,
      )
      assert.equal(
        await createStatus({
          name: 'f',
          content_filter_builtins: [{ slug: 'regex-prompt-injection', action: 'block', scan_scope: 'everything' }],
        }),
        400,
      )
      const defaulted = await create({
        name: 'f',
        content_filter_builtins: [{ slug: 'regex-prompt-injection', action: 'flag' }],
      })
      assert.deepEqual(defaulted.content_filter_builtins, [
        { slug: 'regex-prompt-injection', action: 'flag', label: '[PROMPT_INJECTION]', scan_scope: 'all_messages' },
      ])
    })

    test('PATCH replaces collections, null clears, other fields stay', async () => {
      const guardrail = await create({
        name: 'Patchable',
        allowed_models: ['a/1'],
        content_filters: [{ pattern: 'x', action: 'flag' }],
        limit_usd: 3,
        reset_interval: 'daily',
      })
      const response = await call(gateway, 'PATCH', `/api/v1/guardrails/${guardrail.id}`, {
        allowed_models: ['b/2', 'c/3'],
        content_filters: null,
        limit_usd: 4,
      })
      assert.equal(response.statusCode, 200)
      const updated = (response.json() as { data: Guardrail }).data
      assert.deepEqual(updated.allowed_models, ['b/2', 'c/3'])
      assert.equal(updated.content_filters, null)
      assert.equal(updated.limit_usd, 4)
      assert.equal(updated.reset_interval, 'daily')
      assert.equal(updated.name, 'Patchable')
      assert.match(String(updated.updated_at), /Z$/)
      assert.equal(
        (await call(gateway, 'PATCH', `/api/v1/guardrails/${guardrail.id}`, { limit_usd: null })).statusCode,
        400,
      )
      assert.equal(
        (await call(gateway, 'PATCH', `/api/v1/guardrails/${guardrail.id}`, { limit_usd: null, reset_interval: null }))
          .statusCode,
        200,
      )
      assert.equal(
        (await call(gateway, 'PATCH', `/api/v1/guardrails/${guardrail.id}`, { name: 'x'.repeat(201) })).statusCode,
        400,
      )
      assert.equal(
        (await call(gateway, 'PATCH', `/api/v1/guardrails/${guardrail.id}`, { workspace_id: 'other' })).statusCode,
        400,
      )
    })

    test('list: per workspace (default workspace unless given), offset/limit, total_count', async () => {
      const all = (await call(gateway, 'GET', '/api/v1/guardrails?limit=100')).json() as {
        data: Guardrail[]
        total_count: number
      }
      assert.ok(all.total_count > 5)
      assert.equal(all.data.length, all.total_count)
      const page = (await call(gateway, 'GET', '/api/v1/guardrails?offset=2&limit=3')).json() as {
        data: Guardrail[]
        total_count: number
      }
      assert.deepEqual(
        page.data.map((guardrail) => guardrail.id),
        all.data.slice(2, 5).map((guardrail) => guardrail.id),
      )
      const other = (await call(gateway, 'POST', '/api/v1/workspaces', { name: 'Other', slug: 'other' })).json() as {
        data: { id: string }
      }
      const scoped = await create({ name: 'Scoped', workspace_id: other.data.id })
      assert.equal(scoped.workspace_id, other.data.id)
      assert.deepEqual((await call(gateway, 'GET', `/api/v1/guardrails?workspace_id=${other.data.id}`)).json(), {
        data: [scoped],
        total_count: 1,
      })
      assert.equal((await call(gateway, 'GET', '/api/v1/guardrails?limit=101')).statusCode, 400)
      assert.equal((await call(gateway, 'GET', '/api/v1/guardrails?workspace_id=missing')).statusCode, 404)
      assert.equal(await createStatus({ name: 'x', workspace_id: 'missing' }), 404)
    })

    test('the workspace default guardrail reads empty, is materialized on first write, and keeps its name', async () => {
      const workspace = (await call(gateway, 'GET', '/api/v1/workspaces/other')).json() as {
        data: { id: string; default_guardrail_id: string }
      }
      const id = workspace.data.default_guardrail_id
      const virtual = (await call(gateway, 'GET', `/api/v1/guardrails/${id}`)).json() as { data: Guardrail }
      assert.equal(virtual.data.name, 'Workspace default')
      assert.equal(virtual.data.workspace_id, workspace.data.id)
      assert.equal(virtual.data.allowed_models, null)
      const listedBefore = (
        await call(gateway, 'GET', `/api/v1/guardrails?workspace_id=${workspace.data.id}`)
      ).json() as { data: Guardrail[] }
      assert.ok(!listedBefore.data.some((guardrail) => guardrail.id === id))
      const renamed = await call(gateway, 'PATCH', `/api/v1/guardrails/${id}`, { name: 'Mine now' })
      assert.equal(renamed.statusCode, 400)
      assert.match(errorMessage(renamed), /cannot be renamed/)
      const updated = await call(gateway, 'PATCH', `/api/v1/guardrails/${id}`, { ignored_models: ['bad/model'] })
      assert.equal(updated.statusCode, 200)
      const listedAfter = (
        await call(gateway, 'GET', `/api/v1/guardrails?workspace_id=${workspace.data.id}`)
      ).json() as { data: Guardrail[] }
      assert.deepEqual(listedAfter.data.find((guardrail) => guardrail.id === id)?.ignored_models, ['bad/model'])
    })

    test('DELETE answers {deleted: true}, then 404', async () => {
      const guardrail = await create({ name: 'Short-lived' })
      const deleted = await call(gateway, 'DELETE', `/api/v1/guardrails/${guardrail.id}`)
      assert.equal(deleted.statusCode, 200)
      assert.deepEqual(deleted.json(), { deleted: true })
      assert.equal((await call(gateway, 'GET', `/api/v1/guardrails/${guardrail.id}`)).statusCode, 404)
    })

    test('deleting a workspace deletes its guardrails', async () => {
      const workspace = (await call(gateway, 'POST', '/api/v1/workspaces', { name: 'Gone', slug: 'gone' })).json() as {
        data: { id: string }
      }
      const guardrail = await create({ name: 'Goes too', workspace_id: workspace.data.id })
      assert.deepEqual((await call(gateway, 'DELETE', '/api/v1/workspaces/gone')).json(), { deleted: true })
      assert.equal((await call(gateway, 'GET', `/api/v1/guardrails/${guardrail.id}`)).statusCode, 404)
      await gateway.drained()
      // internals: the deletion reached what inference reads (the guardrail cache), which no API shows.
      assert.equal(gateway.internals.caches.guardrails.get(guardrail.id), undefined)
    })
  })
}
