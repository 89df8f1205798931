// Text a store cannot hold the same way (NUL, unpaired UTF-16 surrogates) never poisons the gateway, on
// every engine: identifiers in paths, queries and bodies are refused with a 400 naming the field; free
// text (a chat request's `user`, a workspace name) is stored with U+FFFD in their place; and a row the
// store refuses in a ledger or generation batch is set aside and counted while the others are written.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startFakeUpstream, type FakeUpstream } from '../fake-upstreams/fake-upstream.ts'
import { bearer, startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { sql } from 'kysely'

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
      await refuseEndUser(gateway, engine.name === 'postgres', 'refuse-me')
      const [before, refused, after] = await Promise.all([chat('before'), chat('refuse-me'), chat('after')])
      await flush()
      for (const id of [before, after]) assert.ok(await gateway.findGeneration(id), `generation record ${id} written`)
      assert.equal(await gateway.findGeneration(refused!), undefined, 'the refused record was set aside')
      const ledger = await gateway.store.db
        .selectFrom('ledger_entries')
        .select('generation_id')
        .where('generation_id', 'in', [before!, after!, refused!])
        .execute()
      assert.deepEqual(new Set(ledger.map((row) => row.generation_id)), new Set([before, after]))
      await flush() // drained() resolves: nothing refused is left queued for a retry
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

/**
 * Through the test's own connection, a trigger on generations and ledger_entries that refuses the rows of
 * one end user with a constraint violation, as a value the engine cannot hold would be refused.
 */
async function refuseEndUser(gateway: TestGateway, postgres: boolean, endUser: string): Promise<void> {
  const db = gateway.store.db
  const value = sql.lit(endUser)
  if (postgres)
    await sql`CREATE FUNCTION refuse_end_user() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      IF NEW.end_user = ${value} THEN RAISE EXCEPTION 'refused by the test' USING ERRCODE = 'check_violation'; END IF;
      RETURN NEW; END $$`.execute(db)
  for (const table of ['generations', 'ledger_entries'])
    await (
      postgres
        ? sql`CREATE TRIGGER ${sql.raw(`refuse_${table}`)} BEFORE INSERT ON ${sql.table(table)}
          FOR EACH ROW EXECUTE FUNCTION refuse_end_user()`
        : sql`CREATE TRIGGER ${sql.raw(`refuse_${table}`)} BEFORE INSERT ON ${sql.table(table)}
          WHEN NEW.end_user = ${value} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`
    ).execute(db)
}
