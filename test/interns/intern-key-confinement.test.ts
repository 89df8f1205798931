// The key minted by POST /interns/{id}/keys works at once and is confined to its intern.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startTestGateway } from '../support/test-gateway.ts'
import { call, createInternVia, mintKey, noRuntime, secretBody, type ItemList } from './intern-test-kit.ts'

test("an intern's minted key reaches its own intern and secrets, and nothing else", async () => {
  const gateway = await startTestGateway({ yaml: noRuntime })
  try {
    const workspaceKey = await mintKey(gateway, 'inference', gateway.gateway.bootstrap.defaultWorkspaceId)
    const own = await createInternVia(gateway, workspaceKey, { name: 'own' })
    const other = await createInternVia(gateway, workspaceKey, { name: 'other' })
    await call(gateway, workspaceKey, { method: 'PUT', url: '/api/v1/vault/secrets/shared', body: secretBody('ws') })

    const minted = await call(gateway, gateway.adminKey, {
      method: 'POST',
      url: `/api/v1/interns/${own.id}/keys`,
      body: { name: 'runtime key' },
    })
    assert.equal(minted.status, 201)
    assert.equal(minted.json.data.name, 'runtime key')
    assert.equal(minted.json.data.intern_id, own.id)
    assert.match(minted.json.key, /^sk-sy-v1-[0-9a-f]{64}$/)
    const internKey: string = minted.json.key

    const ownVault = `/api/v1/vault/interns/${own.id}`
    assert.equal((await call(gateway, internKey, { method: 'GET', url: `/api/v1/interns/${own.id}` })).status, 200)
    assert.equal(
      (await call(gateway, internKey, { method: 'PUT', url: `${ownVault}/secrets/mine`, body: secretBody('v') }))
        .status,
      200,
    )
    assert.deepEqual(
      (await call<ItemList>(gateway, internKey, { method: 'GET', url: `${ownVault}/secrets` })).json.data.map(
        (secret) => secret.name,
      ),
      ['mine'],
    )
    const effective = await call<ItemList>(gateway, internKey, {
      method: 'GET',
      url: `${ownVault}/effective-secrets`,
    })
    assert.deepEqual(
      effective.json.data.map((secret) => `${secret.name}:${secret.scope}`),
      ['mine:intern', 'shared:workspace'],
    )
    assert.equal((await call(gateway, internKey, { method: 'DELETE', url: `${ownVault}/secrets/mine` })).status, 204)

    const otherVault = `/api/v1/vault/interns/${other.id}`
    const refused = [
      { method: 'GET' as const, url: '/api/v1/interns' },
      { method: 'GET' as const, url: `/api/v1/interns/${other.id}` },
      { method: 'GET' as const, url: `${otherVault}/secrets` },
      { method: 'PUT' as const, url: `${otherVault}/secrets/x`, body: secretBody('v') },
      { method: 'DELETE' as const, url: `${otherVault}/secrets/x` },
      { method: 'GET' as const, url: `${otherVault}/effective-secrets` },
      { method: 'POST' as const, url: `${otherVault}/secrets/copy`, body: { names: ['shared'] } },
      { method: 'GET' as const, url: '/api/v1/vault/secrets' },
      { method: 'PUT' as const, url: '/api/v1/vault/secrets/x', body: secretBody('v') },
      { method: 'DELETE' as const, url: '/api/v1/vault/secrets/shared' },
    ]
    for (const request of refused)
      assert.equal((await call(gateway, internKey, request)).status, 404, `${request.method} ${request.url}`)

    assert.equal(
      (
        await call(gateway, gateway.adminKey, {
          method: 'POST',
          url: '/api/v1/interns/00000000-0000-4000-8000-000000000000/keys',
        })
      ).status,
      404,
    )
    assert.equal(
      (await call(gateway, workspaceKey, { method: 'DELETE', url: `/api/v1/interns/${other.id}` })).status,
      202,
    )
    assert.equal(
      (await call(gateway, gateway.adminKey, { method: 'POST', url: `/api/v1/interns/${other.id}/keys` })).status,
      409,
    )
  } finally {
    await gateway.close()
  }
})
