// Text a store cannot hold the same way (NUL, unpaired UTF-16 surrogates) never poisons the gateway, on
// every engine: identifiers in paths, queries and bodies are refused with a 400 naming the field; free
// text (a chat request's `user`, a workspace name) is stored with U+FFFD in their place; and a row the
// store refuses in a ledger or generation batch is set aside and counted while the others are written.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { bearer, startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import type { LedgerRow } from '../../src/store/repositories/ledger-repository.ts'

const postgres = postgresTarget()
const engines = [
  { name: 'sqlite', skip: false as const, postgresUrl: undefined },
  { name: 'postgres', skip: postgres.skip, postgresUrl: postgres.url },
]

const yaml = (upstream: string) =>
  `providers:\n  - { slug: chatco, api: openai-chat, base_url: "${upstream}" }\nmodels:\n  - slug: test/model\n    endpoints:\n      - { provider: chatco, upstream_model_id: m1, pricing: { prompt: "0.000001", completion: "0.000002" } }\n`

for (const engine of engines) {
  describe(`unstorable text on ${engine.name}`, { skip: engine.skip }, () => {
    let upstream: FakeUpstream
    let gateway: TestGateway
    let key: string

    before(async () => {
      upstream = await startFakeUpstream({ api: 'openai-chat' })
      gateway = await startTestGateway({
        yaml: yaml(upstream.url),
        ...(engine.postgresUrl === undefined ? {} : { postgresUrl: engine.postgresUrl }),
      })
      const created = await gateway.inject({
        method: 'POST',
        url: '/api/v1/keys',
        headers: bearer(gateway.adminKey),
        payload: { name: 'chat' },
      })
      key = created.json<{ key: string }>().key
    })
    after(async () => {
      await gateway?.close()
      await upstream?.close()
    })

    async function chat(user?: string): Promise<string> {
      const response = await gateway.inject({
        method: 'POST',
        url: '/api/v1/chat/completions',
        headers: bearer(key),
        payload: { model: 'test/model', messages: [{ role: 'user', content: 'hi' }], ...(user ? { user } : {}) },
      })
      assert.equal(response.statusCode, 200, response.body)
      return response.json<{ id: string }>().id
    }

    async function flush(): Promise<void> {
      await gateway.drained()
    }

    test('a NUL in `user` is answered, stored as U+FFFD, and the requests after it are recorded', async () => {
      const poisoned = await chat('team\u0000lead\uD800')
      await flush()
      const later = [await chat('plain'), await chat()]
      await flush()
      const ids = [poisoned, ...later]
      const ledger = await gateway.store.db
        .selectFrom('ledger_entries')
        .select(['generation_id', 'end_user'])
        .where('generation_id', 'in', ids)
        .execute()
      assert.deepEqual(new Set(ledger.map((row) => row.generation_id)), new Set(ids), 'every ledger row written')
      assert.equal(ledger.find((row) => row.generation_id === poisoned)?.end_user, 'team\uFFFDlead\uFFFD')
      for (const id of ids) assert.ok(await gateway.findGeneration(id), `generation record ${id} written`)
      assert.equal((await gateway.findGeneration(poisoned))?.record.endUser, 'team\uFFFDlead\uFFFD')
    })

    test('a row the store refuses is set aside and counted; the rows batched with it are written', async () => {
      // internals: no request yields a row the store refuses, so one joins the gateway's own commit queue.
      const accounting = gateway.internals.accounting
      const before = await chat('before')
      const pending = await accounting.generations.find(before)
      assert.ok(pending)
      // A value every engine refuses: NULL in a NOT NULL column.
      const refused = { ...pending.record, id: `${before}-refused`, model: null as unknown as string }
      accounting.generations.add(refused, null)
      accounting.ledger.enqueue(refusedLedgerRow(`${before}-refused`))
      const after = await chat('after')
      await flush()
      for (const id of [before, after]) assert.ok(await gateway.findGeneration(id), `generation record ${id} written`)
      assert.equal(await gateway.findGeneration(refused.id), undefined, 'the refused record was set aside')
      assert.equal(await accounting.generations.find(refused.id), undefined, 'and is not retried')
      const ledger = await gateway.store.db
        .selectFrom('ledger_entries')
        .select('generation_id')
        .where('generation_id', 'in', [before, after, refused.id])
        .execute()
      assert.deepEqual(new Set(ledger.map((row) => row.generation_id)), new Set([before, after]))
      assert.equal(accounting.ledger.pendingCount, 0, 'the refused ledger row is not retried')
      const metrics = (await gateway.inject({ method: 'GET', url: '/metrics' })).body
      assert.match(metrics, /^switchyard_store_rows_rejected_total\{table="generations"\} 1$/m)
      assert.match(metrics, /^switchyard_store_rows_rejected_total\{table="ledger_entries"\} 1$/m)
    })

    test('NUL or an unpaired surrogate in a path, query or body identifier is a 400 naming the field', async () => {
      const cases: [method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, field: string, payload?: object][] = [
        ['GET', '/api/v1/keys/%00', 'hash'],
        ['PATCH', '/api/v1/keys/abc%00', 'hash', { name: 'x' }],
        ['DELETE', '/api/v1/workspaces/ws%00', 'id'],
        ['GET', '/api/v1/guardrails/%00/assignments/keys', 'id'],
        ['GET', '/api/v1/generation?id=gen-%00', 'id'],
        ['GET', '/api/v1/keys?offset=1%00', 'offset'],
        ['POST', '/api/v1/guardrails', 'workspace_id', { name: 'g', workspace_id: 'ws\uD800' }],
        ['POST', '/api/v1/guardrails/abc/assignments/keys', 'key_hashes', { key_hashes: ['ok', 'bad\u0000'] }],
      ]
      for (const [method, url, field, payload] of cases) {
        const response = await gateway.inject({ method, url, headers: bearer(gateway.adminKey), payload })
        assert.equal(response.statusCode, 400, `${method} ${url}: ${response.body}`)
        const body = response.json<{ error: { code: number; message: string; metadata?: { field?: string } } }>()
        assert.equal(body.error.code, 400)
        assert.match(body.error.message, new RegExp(`"${field}" contains a NUL character`))
        assert.equal(body.error.metadata?.field, field)
      }
    })

    test('free text in a management write is stored with U+FFFD, the same on every engine', async () => {
      const created = await gateway.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: bearer(gateway.adminKey),
        payload: { name: 'Team\u0000A\uDC00', slug: `nul-${engine.name}`, description: 'x\u0000y' },
      })
      assert.equal(created.statusCode, 201, created.body)
      const id = created.json<{ data: { id: string } }>().data.id
      const read = await gateway.inject({
        method: 'GET',
        url: `/api/v1/workspaces/${id}`,
        headers: bearer(gateway.adminKey),
      })
      const workspace = read.json<{ data: { name: string; description: string } }>().data
      assert.equal(workspace.name, 'Team\uFFFDA\uFFFD')
      assert.equal(workspace.description, 'x\uFFFDy')
    })
  })
}

function refusedLedgerRow(generationId: string): LedgerRow {
  return {
    id: `${generationId}:1`,
    generation_id: generationId,
    attempt: 1,
    key_hash: 'k'.repeat(64),
    workspace_id: 'w',
    organization_id: 'o',
    model: null as unknown as string,
    provider: 'p',
    prompt_tokens: 1,
    completion_tokens: 1,
    reasoning_tokens: 0,
    cached_tokens: 0,
    cache_write_tokens: 0,
    cost_nano: '1000',
    is_byok: 0,
    end_user: null,
    created_at: '2026-11-26T00:00:00.000Z',
  }
}
