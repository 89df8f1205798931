// Effective secrets (intern > attached > workspace, one entry per name, ordered by name), legacy rows
// (hosts and fingerprint null) and copy into an intern (all or nothing).
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import {
  addWorkspace,
  call,
  callerFor,
  createInternVia,
  mintKey,
  noRuntime,
  secretBody,
  seedingArea,
  type ItemList,
} from '../interns/intern-test-kit.ts'

for (const [engine, url] of [
  ['sqlite', undefined],
  ['postgres', postgresTarget().url],
] as const) {
  const skip = engine === 'postgres' ? postgresTarget().skip : false
  describe(`on ${engine}`, { skip }, () => {
    let gateway: TestGateway
    let key: string
    let workspaceId: string
    const v = '/api/v1/vault'

    before(async () => {
      gateway = await startTestGateway(url === undefined ? { yaml: noRuntime } : { postgresUrl: url, yaml: noRuntime })
      workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
      key = await mintKey(gateway, 'inference', workspaceId)
    })
    after(async () => {
      await gateway.close()
    })

    const put = async (path: string, value: string, hosts: string[] = ['api.example.com']) => {
      const response = await call(gateway, key, { method: 'PUT', url: `${v}/${path}`, body: secretBody(value, hosts) })
      assert.equal(response.status, 200, response.text)
      return response.json.data
    }
    const effective = async (internId: string, query = '') =>
      call<ItemList>(gateway, key, { method: 'GET', url: `${v}/interns/${internId}/effective-secrets${query}` })

    test(`precedence over all three scopes, with a legacy workspace row (${engine})`, { skip }, async () => {
      const lender = await createInternVia(gateway, key, { name: 'lender' })
      const borrower = await createInternVia(gateway, key, { name: 'borrower', vault_id: lender.vault_id })
      assert.equal(borrower.attached_vault_id, lender.vault_id)
      await seedingArea(gateway).vault.importLegacyWorkspaceSecret(workspaceId, 'legacy_only', 'legacy value')
      await put('secrets/everywhere', 'workspace')
      await put('secrets/ws_and_attached', 'workspace')
      await put('secrets/ws_only', 'workspace', ['ws.example.com'])
      await put(`interns/${lender.id}/secrets/everywhere`, 'attached')
      await put(`interns/${lender.id}/secrets/ws_and_attached`, 'attached', ['lender.example.com'])
      await put(`interns/${lender.id}/secrets/attached_only`, 'attached')
      const own = await put(`interns/${borrower.id}/secrets/everywhere`, 'intern', ['own.example.com'])
      await put(`interns/${borrower.id}/secrets/intern_only`, 'intern')

      const response = await effective(borrower.id)
      assert.equal(response.status, 200)
      assert.equal(response.json.has_more, false)
      const summary = response.json.data.map((entry) => [entry.name, entry.scope, entry.hosts])
      assert.deepEqual(summary, [
        ['attached_only', 'attached', ['api.example.com']],
        ['everywhere', 'intern', ['own.example.com']],
        ['intern_only', 'intern', ['api.example.com']],
        ['legacy_only', 'workspace', null],
        ['ws_and_attached', 'attached', ['lender.example.com']],
        ['ws_only', 'workspace', ['ws.example.com']],
      ])
      const everywhere = response.json.data.find((entry) => entry.name === 'everywhere')
      assert.equal(everywhere?.fingerprint, own.fingerprint)
      assert.equal(response.json.data.find((entry) => entry.name === 'legacy_only')?.fingerprint, null)
      assert.ok(!response.text.includes('workspace value') && !response.text.includes('legacy value'))

      const paged = await effective(borrower.id, '?limit=2&offset=2')
      assert.deepEqual(
        paged.json.data.map((entry) => entry.name),
        ['intern_only', 'legacy_only'],
      )
      assert.equal(paged.json.has_more, true)

      const lenderView = await effective(lender.id)
      assert.deepEqual(
        lenderView.json.data.map((entry) => `${entry.name}:${entry.scope}`),
        [
          'attached_only:intern',
          'everywhere:intern',
          'legacy_only:workspace',
          'ws_and_attached:intern',
          'ws_only:workspace',
        ],
      )
    })

    test(
      `legacy rows: listed with nulls, refused by copy (409, nothing copied), given hosts by storing again (${engine})`,
      { skip },
      async () => {
        const intern = await createInternVia(gateway, key, { name: 'copier' })
        await seedingArea(gateway).vault.importLegacyWorkspaceSecret(workspaceId, 'old_token', 'legacy value')
        await put('secrets/new_token', 'fresh value', ['new.example.com'])
        const listed = await call<ItemList>(gateway, key, { method: 'GET', url: `${v}/secrets` })
        const legacy = listed.json.data.find((entry) => entry.name === 'old_token')
        assert.deepEqual({ hosts: legacy?.hosts, fingerprint: legacy?.fingerprint }, { hosts: null, fingerprint: null })

        const copyUrl = `${v}/interns/${intern.id}/secrets/copy`
        const refused = await call(gateway, key, {
          method: 'POST',
          url: copyUrl,
          body: { names: ['new_token', 'old_token'] },
        })
        assert.equal(refused.status, 409)
        assert.match(refused.json.error.message, /"old_token".*store it again with hosts/)
        const missing = await call(gateway, key, {
          method: 'POST',
          url: copyUrl,
          body: { names: ['new_token', 'nope'] },
        })
        assert.equal(missing.status, 404)
        assert.match(missing.json.error.message, /"nope"/)
        assert.deepEqual(
          (await call<ItemList>(gateway, key, { method: 'GET', url: `${v}/interns/${intern.id}/secrets` })).json.data,
          [],
          'nothing copied on failure',
        )

        const restored = await put('secrets/old_token', 'legacy value', ['legacy.example.com'])
        assert.deepEqual(restored.hosts, ['legacy.example.com'])
        assert.match(String(restored.fingerprint), /^sha256:/)

        await put(`interns/${intern.id}/secrets/new_token`, 'to be replaced', ['stale.example.com'])
        const copied = await call<ItemList>(gateway, key, {
          method: 'POST',
          url: copyUrl,
          body: { names: ['old_token', 'new_token'] },
        })
        assert.equal(copied.status, 200, copied.text)
        assert.deepEqual(
          copied.json.data.map((entry) => [entry.name, entry.hosts]),
          [
            ['new_token', ['new.example.com']],
            ['old_token', ['legacy.example.com']],
          ],
        )
        const internList = await call<ItemList>(gateway, key, {
          method: 'GET',
          url: `${v}/interns/${intern.id}/secrets`,
        })
        assert.deepEqual(
          internList.json.data.map((entry) => entry.hosts),
          [['new.example.com'], ['legacy.example.com']],
          'copies replace and keep hosts',
        )
        // The copy keeps the value: storing the same value in the intern vault gives the copy's fingerprint.
        const same = await put(`interns/${intern.id}/secrets/probe`, 'fresh value', ['new.example.com'])
        assert.equal(same.fingerprint, internList.json.data[0]?.fingerprint)

        for (const names of [[], Array.from({ length: 101 }, (_, index) => `n${index}`), ['dup', 'dup'], ['Bad']]) {
          assert.equal(
            (await call(gateway, key, { method: 'POST', url: copyUrl, body: { names } })).status,
            400,
            JSON.stringify(names).slice(0, 40),
          )
        }
      },
    )

    test(`effective secrets answer 404 once the borrowed vault is gone (${engine})`, { skip }, async () => {
      const lender = await createInternVia(gateway, key, { name: 'short-lived' })
      const borrower = await createInternVia(gateway, key, { name: 'orphan', vault_id: lender.vault_id })
      assert.equal((await effective(borrower.id)).status, 200)
      assert.equal((await call(gateway, key, { method: 'DELETE', url: `/api/v1/interns/${lender.id}` })).status, 202)
      const gone = await effective(borrower.id)
      assert.equal(gone.status, 404)
      assert.match(gone.json.error.message, /no longer available/)
      const unattachable = await call(gateway, key, {
        method: 'POST',
        url: '/api/v1/interns',
        body: { name: 'late', vault_id: lender.vault_id },
      })
      assert.equal(unattachable.status, 409)
    })

    test(`an intern cannot borrow a vault from another workspace (${engine})`, { skip }, async () => {
      const seed = seedingArea(gateway)
      const elsewhere = await addWorkspace(gateway, `elsewhere-${engine}`)
      const { intern } = await seed.interns.create(callerFor(elsewhere), { name: 'foreign' }, undefined)
      const response = await call(gateway, key, {
        method: 'POST',
        url: '/api/v1/interns',
        body: { name: 'thief', vault_id: intern.vault_id },
      })
      assert.equal(response.status, 409)
    })
  })
}
