// The presets routes (api-reference §10; spec "Preset version" and GET /presets/{slug}/versions/{version})
// on SQLite and, when TEST_DATABASE_URL is set, PostgreSQL.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { startTestGateway, bearer, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { createOrganizationsRepository } from '../../src/store/repositories/organizations-repository.ts'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { mintApiKey } from './mint-api-key.ts'

interface Version {
  id: string
  preset_id: string
  version: number
  config: Record<string, unknown>
  system_prompt: string | null
  creator_id: string
}
interface Preset {
  id: string
  slug: string
  name: string
  status: string
  designated_version_id: string | null
  workspace_id: string | null
  updated_at: string
  designated_version?: Version | null
}

const postgres = postgresTarget()
const engines = [
  { name: 'sqlite', skip: false as const, postgresUrl: undefined },
  { name: 'postgres', skip: postgres.skip, postgresUrl: postgres.url },
]

for (const engine of engines) {
  describe(`presets on ${engine.name}`, { skip: engine.skip }, () => {
    let gateway: TestGateway
    let upstream: FakeUpstream
    let key: string
    let instant = Date.parse('2026-04-01T08:00:00.000Z')

    before(async () => {
      upstream = await startFakeUpstream({ api: 'openai-chat' })
      gateway = await startTestGateway({
        postgresUrl: engine.postgresUrl,
        clock: { now: () => new Date(instant) },
        yaml: presetModelsYaml(upstream.url),
      })
      key = (await mintApiKey(gateway, 'inference')).plaintext
    })
    after(async () => {
      await gateway.close()
      await upstream.close()
    })

    async function call(method: 'GET' | 'POST', url: string, payload?: unknown, apiKey = key) {
      return gateway.inject({
        method,
        url: `/api/v1${url}`,
        headers: bearer(apiKey),
        ...(payload === undefined ? {} : { payload: payload as object }),
      })
    }
    function chat(model: string) {
      return { model, messages: [{ role: 'user', content: 'hi' }] }
    }
    /** A chat completion through a preset; answers the body the upstream received. */
    async function presetCompletion(apiKey: string, model: string): Promise<Record<string, unknown>> {
      upstream.script({ type: 'completion', text: 'ok' })
      const response = await call('POST', '/chat/completions', chat(model), apiKey)
      assert.equal(response.statusCode, 200, response.body)
      return upstream.requests.at(-1)?.body as Record<string, unknown>
    }
    async function create(slug: string, route: string, payload: unknown, apiKey = key): Promise<Preset> {
      const response = await call('POST', `/presets/${slug}/${route}`, payload, apiKey)
      assert.equal(response.statusCode, 200, response.body)
      return (response.json() as { data: Preset }).data
    }

    test('POST chat/completions creates version 1 from the configuration fields only', async () => {
      const preset = await create('support-bot', 'chat/completions', {
        model: 'openai/gpt-4o',
        temperature: 0.3,
        max_tokens: 400,
        provider: { order: ['acme'] },
        stream: true,
        messages: [
          { role: 'system', content: 'You answer support questions.' },
          { role: 'user', content: 'not saved' },
        ],
      })
      assert.equal(preset.slug, 'support-bot')
      assert.equal(preset.name, 'support-bot')
      assert.equal(preset.status, 'active')
      assert.equal(preset.workspace_id, gateway.gateway.bootstrap.defaultWorkspaceId)
      assert.equal(preset.designated_version_id, preset.designated_version?.id)
      const version = preset.designated_version!
      assert.equal(version.version, 1)
      assert.equal(version.preset_id, preset.id)
      assert.deepEqual(version.config, {
        model: 'openai/gpt-4o',
        temperature: 0.3,
        max_tokens: 400,
        provider: { order: ['acme'] },
      })
      assert.equal(version.system_prompt, 'You answer support questions.')
    })

    test('POST responses on an existing slug appends version 2 and designates it; version 1 is unchanged', async () => {
      instant += 1000
      const before = ((await call('GET', '/presets/support-bot/versions/1')).json() as { data: Version }).data
      const preset = await create('support-bot', 'responses', {
        model: 'anthropic/claude',
        input: 'ignored',
        text: { format: { type: 'json_object' } },
        tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }],
      })
      assert.equal(preset.designated_version?.version, 2)
      assert.equal(preset.designated_version?.system_prompt, null)
      assert.deepEqual(preset.designated_version?.config, {
        model: 'anthropic/claude',
        response_format: { type: 'json_object' },
        tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
      })
      const fetched = (await call('GET', '/presets/support-bot')).json() as { data: Preset }
      assert.equal(fetched.data.designated_version?.version, 2)
      assert.equal(fetched.data.designated_version_id, preset.designated_version?.id)
      assert.equal(fetched.data.updated_at, '2026-04-01T08:00:01.000Z')
      const after = ((await call('GET', '/presets/support-bot/versions/1')).json() as { data: Version }).data
      assert.deepEqual(after, before)
    })

    test('POST messages saves `system` as the system prompt', async () => {
      const preset = await create('claude-helper', 'messages', {
        model: 'anthropic/claude',
        max_tokens: 1024,
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'hi' }],
        top_k: 5,
      })
      assert.deepEqual(preset.designated_version?.config, { model: 'anthropic/claude', max_tokens: 1024, top_k: 5 })
      assert.equal(preset.designated_version?.system_prompt, 'Be brief.')
    })

    test('versions list ascending with total_count and offset/limit', async () => {
      instant += 1000
      await create('support-bot', 'chat/completions', { model: 'x/three', messages: [] })
      const all = (await call('GET', '/presets/support-bot/versions')).json() as {
        data: Version[]
        total_count: number
      }
      assert.deepEqual(
        all.data.map((version) => version.version),
        [1, 2, 3],
      )
      assert.equal(all.total_count, 3)
      const page = (await call('GET', '/presets/support-bot/versions?offset=1&limit=1')).json() as {
        data: Version[]
        total_count: number
      }
      assert.deepEqual(
        page.data.map((version) => version.version),
        [2],
      )
      assert.equal(page.total_count, 3)
    })

    test('GET version: non-numeric -> 400; absent -> 404; unknown slug -> 404', async () => {
      for (const version of ['abc', '1.5', '-1', '1e3', ' 1']) {
        const response = await call('GET', `/presets/support-bot/versions/${encodeURIComponent(version)}`)
        assert.equal(response.statusCode, 400, version)
        assert.match(
          (response.json() as { error: { message: string } }).error.message,
          /give the version number, an integer/,
        )
      }
      for (const version of ['0', '4', '99999999999999999999'])
        assert.equal((await call('GET', `/presets/support-bot/versions/${version}`)).statusCode, 404, version)
      for (const url of ['/presets/nope', '/presets/nope/versions', '/presets/nope/versions/1']) {
        const response = await call('GET', url)
        assert.equal(response.statusCode, 404, url)
        assert.match(
          (response.json() as { error: { message: string } }).error.message,
          /No preset "nope" in this key's workspace/,
        )
      }
    })

    test('list: most recently updated first, total_count, pagination', async () => {
      instant += 1000
      await create('claude-helper', 'messages', { temperature: 0.1 })
      const listed = (await call('GET', '/presets')).json() as { data: Preset[]; total_count: number }
      assert.deepEqual(
        listed.data.map((preset) => preset.slug),
        ['claude-helper', 'support-bot'],
      )
      assert.equal(listed.total_count, 2)
      assert.equal('designated_version' in (listed.data[0] ?? {}), false)
      const page = (await call('GET', '/presets?limit=1&offset=1')).json() as { data: Preset[]; total_count: number }
      assert.deepEqual(
        page.data.map((preset) => preset.slug),
        ['support-bot'],
      )
      assert.equal(page.total_count, 2)
      assert.equal((await call('GET', '/presets?limit=101')).statusCode, 400)
    })

    test('slug rules: lowercase letters, digits, inner single hyphens, 1 to 64', async () => {
      for (const slug of ['Upper', 'under_score', 'a--b', '-lead', 'trail-', 'x'.repeat(65), 'sp%20ace']) {
        const response = await call('POST', `/presets/${slug}/chat/completions`, { model: 'm' })
        assert.equal(response.statusCode, 400, slug)
        assert.match((response.json() as { error: { message: string } }).error.message, /lowercase letters, digits/)
      }
      assert.equal((await create('x'.repeat(64), 'chat/completions', { model: 'm' })).slug, 'x'.repeat(64))
      assert.equal((await create('a1-b2-c3', 'chat/completions', { model: 'm' })).slug, 'a1-b2-c3')
    })

    test('a body without settings, or with mistyped settings, is refused', async () => {
      const cases: unknown[] = [
        { messages: [{ role: 'user', content: 'hi' }] },
        { temperature: 'hot' },
        { temperature: 3 },
        { model: 5 },
        { max_tokens: 0 },
        [1, 2],
      ]
      for (const payload of cases)
        assert.equal(
          (await call('POST', '/presets/p-x/chat/completions', payload)).statusCode,
          400,
          JSON.stringify(payload),
        )
      assert.equal((await call('GET', '/presets/p-x')).statusCode, 404)
    })

    test("any valid key works; no key -> 401; presets are scoped to the key's workspace", async () => {
      assert.equal((await call('GET', '/presets', undefined, gateway.adminKey)).statusCode, 200)
      assert.equal((await gateway.inject({ method: 'GET', url: '/api/v1/presets' })).statusCode, 401)
      const otherWorkspace = randomUUID()
      await createOrganizationsRepository(gateway.store.db).insertWorkspace({
        id: otherWorkspace,
        organizationId: gateway.gateway.bootstrap.organizationId,
        name: 'Other',
        slug: `other-${otherWorkspace.slice(0, 8)}`,
        isDefault: false,
        createdBy: null,
        createdAt: new Date(instant).toISOString(),
      })
      const other = (await mintApiKey(gateway, 'inference', otherWorkspace)).plaintext
      assert.equal(((await call('GET', '/presets', undefined, other)).json() as { total_count: number }).total_count, 0)
      assert.equal((await call('GET', '/presets/support-bot', undefined, other)).statusCode, 404)
      const own = await create('support-bot', 'chat/completions', { model: 'other/model' }, other)
      assert.equal(own.designated_version?.version, 1)
      assert.equal(own.workspace_id, otherWorkspace)

      // What inference applies: each workspace's designated version reaches the upstream.
      await gateway.drained()
      const otherBody = await presetCompletion(other, '@preset/support-bot')
      assert.equal(otherBody.model, 'other-model-1')
      const ownBody = await presetCompletion(key, '@preset/support-bot')
      assert.equal(ownBody.model, 'three-1', 'version 3 (x/three) is the designated one')
      assert.deepEqual(ownBody.messages, [{ role: 'user', content: 'hi' }], 'version 3 has no system prompt')
      const calls = upstream.requests.length
      const missing = await call('POST', '/chat/completions', chat('@preset/nope'))
      assert.equal(missing.statusCode, 404, missing.body)
      assert.match(
        (missing.json() as { error: { message: string } }).error.message,
        /Preset "nope" does not exist in this workspace/,
      )
      assert.equal(upstream.requests.length, calls)
    })
  })
}

/** The models the presets name, served by one fake upstream. */
function presetModelsYaml(url: string): string {
  const pricing = '{ prompt: "0.000001", completion: "0.000001" }'
  const model = (slug: string, upstreamId: string) =>
    `  - slug: ${slug}\n    endpoints:\n      - { provider: acme, upstream_model_id: ${upstreamId}, pricing: ${pricing} }\n`
  return (
    `providers:\n  - { slug: acme, api: openai-chat, base_url: "${url}" }\nmodels:\n` +
    model('x/three', 'three-1') +
    model('other/model', 'other-model-1')
  )
}
