// Workspace CRUD and members over HTTP (api-reference §4), on SQLite and PostgreSQL.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { bearer, startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import {
  cachedWorkspaces,
  addOrganizationMember,
  call,
  disableKey,
  engines,
  errorMessage,
  mintKey,
} from './management-fixtures.ts'

type Workspace = Record<string, unknown> & { id: string; slug: string; default_guardrail_id: string }

for (const engine of engines) {
  describe(`workspaces on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    before(async () => {
      gateway = await engine.start()
    })
    after(() => gateway.close())

    async function create(body: Record<string, unknown>): Promise<Workspace> {
      const response = await call(gateway, 'POST', '/api/v1/workspaces', body)
      assert.equal(response.statusCode, 201, response.body)
      return (response.json() as { data: Workspace }).data
    }

    async function createStatus(body: Record<string, unknown>): Promise<number> {
      return (await call(gateway, 'POST', '/api/v1/workspaces', body)).statusCode
    }

    test('401 without a key, 403 with an inference key, 404 for an unknown workspace', async () => {
      assert.equal((await gateway.inject({ method: 'GET', url: '/api/v1/workspaces' })).statusCode, 401)
      const inference = await mintKey(gateway)
      const forbidden = await gateway.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: bearer(inference.plaintext),
        payload: { name: 'x', slug: 'x' },
      })
      assert.equal(forbidden.statusCode, 403)
      const missing = await call(gateway, 'GET', '/api/v1/workspaces/no-such-workspace')
      assert.equal(missing.statusCode, 404)
      assert.match(errorMessage(missing), /no-such-workspace/)
      for (const url of ['/api/v1/workspaces/nope/members', '/api/v1/workspaces/nope/budgets'])
        assert.equal((await call(gateway, 'GET', url)).statusCode, 404)
      assert.equal((await call(gateway, 'PATCH', '/api/v1/workspaces/nope', { name: 'x' })).statusCode, 404)
      assert.equal((await call(gateway, 'DELETE', '/api/v1/workspaces/nope')).statusCode, 404)
    })

    test('create returns 201 with the full workspace object', async () => {
      const workspace = await create({
        name: 'Research',
        slug: 'research',
        description: 'R&D',
        default_text_model: 'acme/fast-1',
        default_image_model: 'acme/draw-1',
        default_provider_sort: 'latency',
        disabled_server_tools: ['openrouter:web_search', 'openrouter:bash'],
        io_logging_api_key_ids: [1, 2],
        io_logging_sampling_rate: 0.5,
        is_data_discount_logging_enabled: true,
        is_observability_broadcast_enabled: true,
        is_observability_io_logging_enabled: true,
      })
      assert.match(workspace.id, /^[0-9a-f-]{36}$/)
      assert.match(workspace.default_guardrail_id, /^[0-9a-f-]{36}$/)
      assert.match(String(workspace.created_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
      const { id, default_guardrail_id, created_at, ...rest } = workspace
      assert.ok(id && default_guardrail_id && created_at)
      assert.deepEqual(rest, {
        name: 'Research',
        slug: 'research',
        description: 'R&D',
        updated_at: null,
        created_by: gateway.gateway.bootstrap.ownerUserId,
        default_image_model: 'acme/draw-1',
        default_text_model: 'acme/fast-1',
        default_provider_sort: 'latency',
        disabled_server_tools: ['openrouter:web_search', 'openrouter:bash'],
        include_byok_in_budgets: false,
        io_logging_api_key_ids: [1, 2],
        io_logging_sampling_rate: 0.5,
        is_data_discount_logging_enabled: true,
        is_observability_broadcast_enabled: true,
        is_observability_io_logging_enabled: true,
        cache_enabled: null,
        cache_ttl_seconds: null,
      })
      const bySlug = await call(gateway, 'GET', '/api/v1/workspaces/research')
      const byId = await call(gateway, 'GET', `/api/v1/workspaces/${workspace.id}`)
      assert.deepEqual(bySlug.json(), { data: workspace })
      assert.deepEqual(byId.json(), { data: workspace })
    })

    test('name: 1..100 characters', async () => {
      assert.equal(await createStatus({ name: 'n'.repeat(100), slug: 'name-limit' }), 201)
      assert.equal(await createStatus({ name: 'n'.repeat(101), slug: 'name-over' }), 400)
      assert.equal(await createStatus({ name: '', slug: 'name-empty' }), 400)
      assert.equal(await createStatus({ slug: 'name-missing' }), 400)
    })

    test('slug: 1..50 characters, lowercase words joined by single dashes, unique', async () => {
      assert.equal(await createStatus({ name: 's', slug: 's'.repeat(50) }), 201)
      assert.equal(await createStatus({ name: 's', slug: 's'.repeat(51) }), 400)
      assert.equal(await createStatus({ name: 's', slug: 'a1' }), 201)
      for (const slug of ['', 'Upper', 'a--b', '-a', 'a-', 'a_b', 'a b'])
        assert.equal(await createStatus({ name: 's', slug }), 400, slug)
      const duplicate = await call(gateway, 'POST', '/api/v1/workspaces', { name: 's', slug: 'a1' })
      assert.equal(duplicate.statusCode, 409)
      assert.match(errorMessage(duplicate), /a1/)
    })

    test('description up to 500; provider sort, server tools, logging fields validated', async () => {
      assert.equal(await createStatus({ name: 'd', slug: 'desc-limit', description: 'd'.repeat(500) }), 201)
      assert.equal(await createStatus({ name: 'd', slug: 'desc-over', description: 'd'.repeat(501) }), 400)
      for (const sort of ['price', 'throughput', 'latency', 'exacto'])
        assert.equal(await createStatus({ name: 'p', slug: `sort-${sort}`, default_provider_sort: sort }), 201)
      assert.equal(await createStatus({ name: 'p', slug: 'sort-bad', default_provider_sort: 'cheapest' }), 400)
      assert.equal(await createStatus({ name: 't', slug: 'tools-bad', disabled_server_tools: ['web_search'] }), 400)
      assert.equal(
        await createStatus({ name: 't', slug: 'tools-bad-2', disabled_server_tools: ['openrouter:teleport'] }),
        400,
      )
      const cleared = await create({ name: 't', slug: 'tools-empty', disabled_server_tools: [] })
      assert.equal(cleared.disabled_server_tools, null)
      assert.equal(await createStatus({ name: 'r', slug: 'rate-min', io_logging_sampling_rate: 0.0001 }), 201)
      assert.equal(await createStatus({ name: 'r', slug: 'rate-max', io_logging_sampling_rate: 1 }), 201)
      assert.equal(await createStatus({ name: 'r', slug: 'rate-low', io_logging_sampling_rate: 0.00009 }), 400)
      assert.equal(await createStatus({ name: 'r', slug: 'rate-high', io_logging_sampling_rate: 1.0001 }), 400)
      assert.equal(await createStatus({ name: 'i', slug: 'ids-null', io_logging_api_key_ids: null }), 201)
      assert.equal(await createStatus({ name: 'i', slug: 'ids-bad', io_logging_api_key_ids: ['abc'] }), 400)
      assert.equal(await createStatus({ name: 'b', slug: 'bool-bad', is_data_discount_logging_enabled: 'yes' }), 400)
      assert.equal(await createStatus({ name: 'u', slug: 'unknown-field', colour: 'blue' }), 400)
    })

    test('list paginates with offset/limit and reports total_count', async () => {
      const all = (await call(gateway, 'GET', '/api/v1/workspaces?limit=100')).json() as {
        data: Workspace[]
        total_count: number
      }
      assert.ok(all.total_count >= 3)
      assert.equal(all.data.length, all.total_count)
      const page = (await call(gateway, 'GET', '/api/v1/workspaces?offset=1&limit=2')).json() as {
        data: Workspace[]
        total_count: number
      }
      assert.deepEqual(
        page.data.map((workspace) => workspace.id),
        all.data.slice(1, 3).map((workspace) => workspace.id),
      )
      assert.equal(page.total_count, all.total_count)
      assert.equal((await call(gateway, 'GET', '/api/v1/workspaces?limit=0')).statusCode, 400)
      assert.equal((await call(gateway, 'GET', '/api/v1/workspaces?limit=101')).statusCode, 400)
      assert.equal((await call(gateway, 'GET', '/api/v1/workspaces?offset=-1')).statusCode, 400)
    })

    test('PATCH updates given fields only; slug stays unique; the cache follows', async () => {
      const workspace = await create({
        name: 'Patch me',
        slug: 'patch-me',
        disabled_server_tools: ['openrouter:shell'],
      })
      const response = await call(gateway, 'PATCH', '/api/v1/workspaces/patch-me', {
        default_text_model: 'acme/fast-2',
        disabled_server_tools: null,
        slug: 'patched',
      })
      assert.equal(response.statusCode, 200)
      const updated = (response.json() as { data: Workspace }).data
      assert.equal(updated.name, 'Patch me')
      assert.equal(updated.slug, 'patched')
      assert.equal(updated.default_text_model, 'acme/fast-2')
      assert.equal(updated.disabled_server_tools, null)
      assert.match(String(updated.updated_at), /Z$/)
      assert.equal((await call(gateway, 'PATCH', '/api/v1/workspaces/patched', { slug: 'research' })).statusCode, 409)
      assert.equal(
        (await call(gateway, 'PATCH', '/api/v1/workspaces/patched', { name: 'x'.repeat(101) })).statusCode,
        400,
      )
      assert.equal((await call(gateway, 'PATCH', '/api/v1/workspaces/patched', { slug: 'Bad Slug' })).statusCode, 400)
      await gateway.drained()
      const cached = cachedWorkspaces(gateway).get(workspace.id)
      assert.equal(cached?.defaultTextModel, 'acme/fast-2')
      assert.equal(cached?.slug, 'patched')
      assert.equal(cached?.disabledServerTools.size, 0)
      await call(gateway, 'PATCH', '/api/v1/workspaces/patched', {
        disabled_server_tools: ['openrouter:web_fetch'],
        io_logging_sampling_rate: 0.25,
      })
      await gateway.drained()
      assert.deepEqual(
        [...(cachedWorkspaces(gateway).get(workspace.id)?.disabledServerTools ?? [])],
        ['openrouter:web_fetch'],
      )
      assert.equal(cachedWorkspaces(gateway).get(workspace.id)?.ioLogging.samplingRate, 0.25)
    })

    test('the default workspace lists every organization member; others list explicit members', async () => {
      const userId = await addOrganizationMember(gateway, `member-${engine.name}@example.com`)
      const implicit = (await call(gateway, 'GET', '/api/v1/workspaces/default/members')).json() as {
        data: { user_id: string; role: string }[]
        total_count: number
      }
      assert.equal(implicit.total_count, 2)
      assert.deepEqual(
        implicit.data.map((member) => [member.user_id, member.role]).sort(),
        [
          [gateway.gateway.bootstrap.ownerUserId, 'admin'],
          [userId, 'member'],
        ].sort(),
      )
      const workspace = await create({ name: 'Team', slug: 'team' })
      assert.deepEqual((await call(gateway, 'GET', '/api/v1/workspaces/team/members')).json(), {
        data: [],
        total_count: 0,
      })
      const added = await call(gateway, 'POST', '/api/v1/workspaces/team/members/add', {
        user_ids: [userId, gateway.gateway.bootstrap.ownerUserId],
      })
      assert.equal(added.statusCode, 200)
      const addedBody = added.json() as {
        added_count: number
        data: { user_id: string; role: string; workspace_id: string }[]
      }
      assert.equal(addedBody.added_count, 2)
      assert.deepEqual(
        addedBody.data.map((member) => [member.user_id, member.role, member.workspace_id]).sort(),
        [
          [gateway.gateway.bootstrap.ownerUserId, 'admin', workspace.id],
          [userId, 'member', workspace.id],
        ].sort(),
      )
      const again = (
        await call(gateway, 'POST', '/api/v1/workspaces/team/members/add', { user_ids: [userId] })
      ).json() as { added_count: number }
      assert.equal(again.added_count, 0)
      const listed = (await call(gateway, 'GET', '/api/v1/workspaces/team/members?limit=1&offset=1')).json() as {
        data: unknown[]
        total_count: number
      }
      assert.equal(listed.total_count, 2)
      assert.equal(listed.data.length, 1)
      const removed = await call(gateway, 'POST', '/api/v1/workspaces/team/members/remove', { user_ids: [userId] })
      assert.deepEqual(removed.json(), { removed_count: 1 })
      assert.deepEqual(
        (await call(gateway, 'POST', '/api/v1/workspaces/team/members/remove', { user_ids: [userId] })).json(),
        { removed_count: 0 },
      )
    })

    test('member bodies: 1..100 user ids; unknown users are named in a 404', async () => {
      await create({ name: 'Bounds', slug: 'bounds' })
      assert.equal(
        (await call(gateway, 'POST', '/api/v1/workspaces/bounds/members/add', { user_ids: [] })).statusCode,
        400,
      )
      const hundred = Array.from({ length: 100 }, (_, index) => `ghost-${index}`)
      const atLimit = await call(gateway, 'POST', '/api/v1/workspaces/bounds/members/add', { user_ids: hundred })
      assert.equal(atLimit.statusCode, 404)
      assert.match(errorMessage(atLimit), /ghost-0, ghost-1/)
      assert.equal(
        (await call(gateway, 'POST', '/api/v1/workspaces/bounds/members/add', { user_ids: [...hundred, 'ghost-100'] }))
          .statusCode,
        400,
      )
      assert.equal(
        (await call(gateway, 'POST', '/api/v1/workspaces/bounds/members/remove', { user_ids: [''] })).statusCode,
        400,
      )
      const unknownRemove = await call(gateway, 'POST', '/api/v1/workspaces/bounds/members/remove', {
        user_ids: ['nobody'],
      })
      assert.equal(unknownRemove.statusCode, 404)
      assert.match(errorMessage(unknownRemove), /nobody/)
      assert.equal(
        (
          await call(gateway, 'POST', '/api/v1/workspaces/default/members/add', {
            user_ids: [gateway.gateway.bootstrap.ownerUserId],
          })
        ).statusCode,
        400,
      )
    })

    test('a member owning an active key in the workspace cannot be removed', async () => {
      const workspace = await create({ name: 'Owners', slug: 'owners' })
      const userId = await addOrganizationMember(gateway, `owner-${engine.name}@example.com`)
      await call(gateway, 'POST', '/api/v1/workspaces/owners/members/add', { user_ids: [userId] })
      const key = await mintKey(gateway, { workspaceId: workspace.id, creatorUserId: userId })
      const refused = await call(gateway, 'POST', '/api/v1/workspaces/owners/members/remove', { user_ids: [userId] })
      assert.equal(refused.statusCode, 400)
      assert.match(errorMessage(refused), new RegExp(userId))
      await disableKey(gateway, key.hash)
      assert.deepEqual(
        (await call(gateway, 'POST', '/api/v1/workspaces/owners/members/remove', { user_ids: [userId] })).json(),
        { removed_count: 1 },
      )
    })

    test('delete: refused with 409 while active keys exist; disabled keys do not block', async () => {
      const workspace = await create({ name: 'Doomed', slug: 'doomed' })
      const key = await mintKey(gateway, { workspaceId: workspace.id })
      const refused = await call(gateway, 'DELETE', '/api/v1/workspaces/doomed')
      assert.equal(refused.statusCode, 409)
      assert.match(errorMessage(refused), /1 active API key/)
      await disableKey(gateway, key.hash)
      await call(gateway, 'PUT', '/api/v1/workspaces/doomed/budgets/daily', { limit_usd: 1 })
      const deleted = await call(gateway, 'DELETE', `/api/v1/workspaces/${workspace.id}`)
      assert.equal(deleted.statusCode, 200)
      assert.deepEqual(deleted.json(), { deleted: true })
      assert.equal((await call(gateway, 'GET', '/api/v1/workspaces/doomed')).statusCode, 404)
      await gateway.drained()
      assert.equal(cachedWorkspaces(gateway).get(workspace.id), undefined)
    })

    test('the default workspace needs confirmation; its successor becomes default and keeps the management keys', async () => {
      const defaultId = gateway.gateway.bootstrap.defaultWorkspaceId
      const unconfirmed = await call(gateway, 'DELETE', '/api/v1/workspaces/default')
      assert.equal(unconfirmed.statusCode, 400)
      assert.match(errorMessage(unconfirmed), /confirm_default_workspace_deletion=true/)
      const inference = await mintKey(gateway, { workspaceId: defaultId })
      assert.equal(
        (await call(gateway, 'DELETE', '/api/v1/workspaces/default?confirm_default_workspace_deletion=true'))
          .statusCode,
        409,
      )
      const active = await gateway.store.db
        .selectFrom('api_keys')
        .select('hash')
        .where('workspace_id', '=', defaultId)
        .where('kind', '!=', 'management')
        .execute()
      assert.ok(active.some((row) => row.hash === inference.hash))
      for (const row of active) await disableKey(gateway, row.hash)
      const deleted = await call(
        gateway,
        'DELETE',
        '/api/v1/workspaces/default?confirm_default_workspace_deletion=true',
      )
      assert.deepEqual(deleted.json(), { deleted: true })
      const remaining = (await call(gateway, 'GET', '/api/v1/workspaces?limit=100')).json() as { data: Workspace[] }
      assert.ok(!remaining.data.some((workspace) => workspace.id === defaultId))
      await gateway.drained()
      const successor = cachedWorkspaces(gateway).defaultWorkspace()
      assert.ok(successor !== undefined && successor.id !== defaultId)
      const members = (await call(gateway, 'GET', `/api/v1/workspaces/${successor.id}/members`)).json() as {
        total_count: number
      }
      assert.equal(members.total_count, 3)
      assert.equal(
        (await call(gateway, 'GET', '/api/v1/workspaces')).statusCode,
        200,
        'the admin key moved to the new default workspace and still works',
      )
      const admin = await gateway.store.db
        .selectFrom('api_keys')
        .select('workspace_id')
        .where('kind', '=', 'management')
        .execute()
      assert.deepEqual(
        admin.map((row) => row.workspace_id),
        [successor.id],
      )
    })
  })
}

test('the only workspace cannot be deleted, even with confirmation', async () => {
  const gateway = await startTestGateway()
  try {
    const refused = await call(gateway, 'DELETE', '/api/v1/workspaces/default?confirm_default_workspace_deletion=true')
    assert.equal(refused.statusCode, 409)
    assert.match(errorMessage(refused), /only workspace/)
    assert.equal((await call(gateway, 'GET', '/api/v1/workspaces/default')).statusCode, 200)
  } finally {
    await gateway.close()
  }
})
