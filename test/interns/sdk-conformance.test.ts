// @openrouter/sdk as the client over a real socket: every interns.* and vault.* method parses our
// responses (the SDK validates them with its own schemas and throws on a mismatch).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { OpenRouter } from '@openrouter/sdk'
import { startTestGateway } from '../support/test-gateway.ts'
import { mintKey, noRuntime } from './intern-test-kit.ts'

test('@openrouter/sdk interns.* and vault.* accept our responses', async () => {
  const gateway = await startTestGateway({ yaml: noRuntime })
  try {
    const workspaceId = gateway.gateway.bootstrap.defaultWorkspaceId
    const apiKey = await mintKey(gateway, 'inference', workspaceId)
    const base = await gateway.listen()
    const client = new OpenRouter({ apiKey, serverURL: `${base}/api/v1` })

    const created = await client.interns.createIntern({
      idempotencyKey: 'sdk-1',
      createInternRequest: { name: 'sdk-intern', description: 'from the SDK', workspaceId },
    })
    assert.equal(created.name, 'sdk-intern')
    assert.equal(created.workspaceId, workspaceId)
    const replayed = await client.interns.createIntern({
      idempotencyKey: 'sdk-1',
      createInternRequest: { name: 'sdk-intern', description: 'from the SDK', workspaceId },
    })
    assert.equal(replayed.id, created.id)
    const borrower = await client.interns.createIntern({
      createInternRequest: { name: 'sdk-borrower', vaultId: created.vaultId! },
    })
    assert.equal(borrower.attachedVaultId, created.vaultId)

    const listed = await client.interns.listInterns({ limit: 1, workspaceId, status: ['stopped', 'queued'] })
    assert.equal(listed.data.length, 1)
    assert.equal(listed.hasMore, true)
    const next = await client.interns.listInterns({ limit: 1, startingAfter: listed.nextCursor! })
    assert.notEqual(next.data[0]!.id, listed.data[0]!.id)
    assert.equal((await client.interns.getIntern({ internId: created.id })).id, created.id)
    const updated = await client.interns.updateIntern({
      internId: created.id,
      updateInternRequest: { instructions: 'be brief', model: 'acme/fast-1' },
    })
    assert.equal(updated.instructions, 'be brief')
    assert.deepEqual(await client.interns.provisionIntern({ internId: created.id }), { provisioning: true })
    assert.deepEqual(await client.interns.suspendIntern({ internId: created.id }), { suspended: true })

    const stored = await client.vault.storeVaultSecret({
      name: 'gh_token',
      vaultSecretWriteRequest: { hosts: ['API.GitHub.com.'], value: 'ghp_example' },
    })
    assert.deepEqual(stored.data.hosts, ['api.github.com'])
    assert.ok(stored.data.createdAt instanceof Date)
    const workspaceList = await client.vault.listVaultSecrets({ limit: 10, offset: 0 })
    assert.deepEqual(
      workspaceList.data.map((secret) => secret.name),
      ['gh_token'],
    )
    assert.equal(workspaceList.hasMore, false)
    const internSecret = await client.vault.storeInternVaultSecret({
      internId: created.id,
      name: 'own',
      vaultSecretWriteRequest: { hosts: ['a.example.com'], value: 'v' },
    })
    assert.equal(internSecret.data.name, 'own')
    const copied = await client.vault.copyVaultSecretsToIntern({
      internId: created.id,
      vaultSecretCopyRequest: { names: ['gh_token'] },
    })
    assert.deepEqual(
      copied.data.map((secret) => secret.name),
      ['gh_token'],
    )
    const internList = await client.vault.listInternVaultSecrets({ internId: created.id })
    assert.deepEqual(
      internList.data.map((secret) => secret.name),
      ['gh_token', 'own'],
    )
    await client.vault.deleteInternVaultSecret({ internId: created.id, name: 'own' })
    await client.vault.deleteVaultSecret({ name: 'gh_token' })
    assert.deepEqual((await client.vault.listVaultSecrets()).data, [])

    const missing = await client.vault.deleteVaultSecret({ name: 'gh_token' }).then(
      () => null,
      (error: unknown) => error,
    )
    assert.ok(missing instanceof Error, 'a 404 surfaces as an SDK error')
    assert.equal((missing as { statusCode?: number }).statusCode, 404)

    assert.deepEqual(await client.interns.deleteIntern({ internId: borrower.id, deleteInternRequest: {} }), {
      deleting: true,
    })
  } finally {
    await gateway.close()
  }
})
