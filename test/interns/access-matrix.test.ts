// Route-by-route access matrix: every intern and vault route called with a workspace key, the intern's
// own key, another workspace's key, a management key, a key of a workspace outside the Intern API
// programme, and a workspace key on a regional hostname. Each cell starts from a fresh intern.
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { postgresTarget } from '../support/test-services.ts'
import { addWorkspace, call, callerFor, mintKey, secretBody, seedingArea, type Call } from './intern-test-kit.ts'

type Column = 'workspace' | 'intern' | 'other' | 'management' | 'outside' | 'regional'
const columns: readonly Column[] = ['workspace', 'intern', 'other', 'management', 'outside', 'regional']

interface Row {
  readonly name: string
  readonly request: (internId: string) => Call
  readonly expected: Readonly<Record<Column, number>>
  /** Management-key route: the outside and regional columns use the management key too. */
  readonly managementRoute?: boolean
}

const v = '/api/v1/vault'
const i = '/api/v1/interns'
const rows: readonly Row[] = [
  {
    name: 'GET /interns',
    request: () => ({ method: 'GET', url: i }),
    expected: { workspace: 200, intern: 404, other: 200, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'POST /interns',
    request: () => ({ method: 'POST', url: i, body: { name: `n${Math.random().toString(36).slice(2, 10)}` } }),
    expected: { workspace: 201, intern: 404, other: 201, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'GET /interns/{id}',
    request: (id) => ({ method: 'GET', url: `${i}/${id}` }),
    expected: { workspace: 200, intern: 200, other: 404, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'PATCH /interns/{id}',
    request: (id) => ({ method: 'PATCH', url: `${i}/${id}`, body: { description: 'x' } }),
    expected: { workspace: 200, intern: 403, other: 404, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'DELETE /interns/{id}',
    request: (id) => ({ method: 'DELETE', url: `${i}/${id}` }),
    expected: { workspace: 202, intern: 403, other: 404, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'POST /interns/{id}/provision',
    request: (id) => ({ method: 'POST', url: `${i}/${id}/provision` }),
    expected: { workspace: 202, intern: 403, other: 404, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'POST /interns/{id}/suspend',
    request: (id) => ({ method: 'POST', url: `${i}/${id}/suspend` }),
    expected: { workspace: 200, intern: 403, other: 404, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'POST /interns/{id}/keys',
    managementRoute: true,
    request: (id) => ({ method: 'POST', url: `${i}/${id}/keys` }),
    expected: { workspace: 403, intern: 403, other: 403, management: 201, outside: 404, regional: 403 },
  },
  {
    name: 'GET /vault/secrets',
    request: () => ({ method: 'GET', url: `${v}/secrets` }),
    expected: { workspace: 200, intern: 404, other: 200, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'PUT /vault/secrets/{name}',
    request: () => ({ method: 'PUT', url: `${v}/secrets/written`, body: secretBody('s3cret') }),
    expected: { workspace: 200, intern: 404, other: 200, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'DELETE /vault/secrets/{name}',
    request: () => ({ method: 'DELETE', url: `${v}/secrets/shared` }),
    expected: { workspace: 204, intern: 404, other: 404, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'GET /vault/interns/{id}/secrets',
    request: (id) => ({ method: 'GET', url: `${v}/interns/${id}/secrets` }),
    expected: { workspace: 200, intern: 200, other: 404, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'PUT /vault/interns/{id}/secrets/{name}',
    request: (id) => ({ method: 'PUT', url: `${v}/interns/${id}/secrets/own`, body: secretBody('s3cret') }),
    expected: { workspace: 200, intern: 200, other: 404, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'DELETE /vault/interns/{id}/secrets/{name}',
    request: (id) => ({ method: 'DELETE', url: `${v}/interns/${id}/secrets/own` }),
    expected: { workspace: 204, intern: 204, other: 404, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'POST /vault/interns/{id}/secrets/copy',
    request: (id) => ({ method: 'POST', url: `${v}/interns/${id}/secrets/copy`, body: { names: ['shared'] } }),
    expected: { workspace: 200, intern: 404, other: 404, management: 401, outside: 404, regional: 403 },
  },
  {
    name: 'GET /vault/interns/{id}/effective-secrets',
    request: (id) => ({ method: 'GET', url: `${v}/interns/${id}/effective-secrets` }),
    expected: { workspace: 200, intern: 200, other: 404, management: 401, outside: 404, regional: 403 },
  },
]

for (const [engine, url] of [
  ['sqlite', undefined],
  ['postgres', postgresTarget().url],
] as const) {
  const skip = engine === 'postgres' ? postgresTarget().skip : false
  describe(`on ${engine}`, { skip }, () => {
    let gateway: TestGateway
    let workspaceId: string
    let outsideId: string
    const keys = {} as Record<'workspace' | 'other' | 'outside', string>

    before(async () => {
      gateway = await startTestGateway({
        ...(url === undefined ? {} : { postgresUrl: url }),
        yaml: 'server:\n  regional_hostnames: [eu.switchyard.test]\ninterns:\n  workspaces: [default, other-team]\n  runtime: false\n',
      })
      workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
      const otherId = await addWorkspace(gateway, 'other-team')
      outsideId = await addWorkspace(gateway, 'outside-team')
      keys.workspace = await mintKey(gateway, 'inference', workspaceId)
      keys.other = await mintKey(gateway, 'inference', otherId)
      keys.outside = await mintKey(gateway, 'inference', outsideId)
    })
    after(async () => {
      await gateway.close()
    })

    /** A fresh intern (stopped; queued for the suspend row) with a workspace secret "shared" and an intern secret "own". */
    async function prepare(
      column: Column,
      row: Row,
    ): Promise<{ internId: string; key: string; headers: Record<string, string> }> {
      const seed = seedingArea(gateway)
      const home = column === 'outside' ? outsideId : workspaceId
      const caller = callerFor(home)
      const { intern } = await seed.interns.create(
        caller,
        { name: `t${Math.random().toString(36).slice(2, 12)}`, provision: row.name.endsWith('suspend') },
        undefined,
      )
      await seed.vault.storeWorkspaceSecret(caller, 'shared', secretBody('workspace value'))
      await seed.vault.storeInternSecret(caller, intern.id, 'own', secretBody('intern value'))
      const byColumn: Record<Column, string> = {
        workspace: keys.workspace,
        intern: await mintKey(gateway, 'intern', workspaceId, intern.id),
        other: keys.other,
        management: gateway.adminKey,
        outside: row.managementRoute === true ? gateway.adminKey : keys.outside,
        regional: row.managementRoute === true ? gateway.adminKey : keys.workspace,
      }
      return {
        internId: intern.id,
        key: byColumn[column],
        headers: column === 'regional' ? { host: 'EU.switchyard.test:8443' } : {},
      }
    }

    test(`access matrix on ${engine}`, { skip }, async () => {
      const mismatches: string[] = []
      for (const row of rows) {
        for (const column of columns) {
          const { internId, key, headers } = await prepare(column, row)
          const request = row.request(internId)
          const response = await call(gateway, key, { ...request, headers: { ...request.headers, ...headers } })
          if (response.status !== row.expected[column])
            mismatches.push(
              `${row.name} as ${column}: expected ${row.expected[column]}, got ${response.status} ${response.text}`,
            )
          if (response.status >= 400) {
            assert.equal(response.json.error.code, response.status)
            assert.equal(
              typeof response.json.error.metadata?.reason,
              'string',
              `${row.name} as ${column}: metadata.reason`,
            )
            assert.equal(typeof response.json.error.metadata?.retryable, 'boolean')
          }
        }
      }
      assert.deepEqual(mismatches, [])
    })
  })
}
