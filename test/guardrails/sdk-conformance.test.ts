// The official @openrouter/sdk drives every guardrail route over a real socket and must accept our
// responses (its zod schemas reject any shape drift).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { OpenRouter } from '@openrouter/sdk'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { mintKey } from '../workspaces/management-fixtures.ts'

let gateway: TestGateway
let sdk: OpenRouter

before(async () => {
  gateway = await startTestGateway()
  const base = await gateway.listen()
  sdk = new OpenRouter({ apiKey: gateway.adminKey, serverURL: `${base}/api/v1` })
})
after(() => gateway.close())

test('@openrouter/sdk guardrails: create, get, list, update, delete', async () => {
  const created = await sdk.guardrails.create({
    createGuardrailRequest: {
      name: 'SDK guardrail',
      description: 'made by the SDK',
      limitUsd: 10,
      resetInterval: 'monthly',
      allowedModels: ['acme/fast-1'],
      allowedDataRegions: ['europe'],
      contentFilters: [{ pattern: 'project-\\w+', action: 'redact', label: '[PROJECT]' }],
      contentFilterBuiltins: [
        { slug: 'email', action: 'redact' },
        { slug: 'regex-prompt-injection', action: 'block', scanScope: 'user_only' },
      ],
      enforceZdrOpenai: true,
    },
  })
  assert.equal(created.data.name, 'SDK guardrail')
  assert.equal(created.data.limitUsd, 10)
  assert.deepEqual(
    created.data.contentFilterBuiltins?.map((filter) => filter.label),
    ['[EMAIL]', '[PROMPT_INJECTION]'],
  )
  const id = created.data.id

  assert.equal((await sdk.guardrails.get({ id })).data.id, id)
  const listed = await sdk.guardrails.list({})
  assert.equal(listed.result.totalCount, 1)
  const updated = await sdk.guardrails.update({
    id,
    updateGuardrailRequest: { description: null, ignoredProviders: ['cheapo'] },
  })
  assert.equal(updated.data.description, null)
  assert.deepEqual(updated.data.ignoredProviders, ['cheapo'])

  const workspace = await sdk.workspaces.get({ id: 'default' })
  const defaultGuardrail = await sdk.guardrails.get({ id: workspace.data.defaultGuardrailId })
  assert.equal(defaultGuardrail.data.workspaceId, workspace.data.id)

  assert.equal((await sdk.guardrails.delete({ id })).deleted, true)
  await assert.rejects(sdk.guardrails.get({ id }), (error: Error & { statusCode?: number }) => error.statusCode === 404)
})

test('@openrouter/sdk guardrails: key and member assignments', async () => {
  const { data } = await sdk.guardrails.create({ createGuardrailRequest: { name: 'Assignable' } })
  const key = await mintKey(gateway, { name: 'sdk key' })
  const ownerId = gateway.gateway.bootstrap.ownerUserId

  assert.equal(
    (await sdk.guardrails.bulkAssignKeys({ id: data.id, bulkAssignKeysRequest: { keyHashes: [key.hash] } }))
      .assignedCount,
    1,
  )
  const perGuardrail = await sdk.guardrails.listGuardrailKeyAssignments({ id: data.id })
  assert.equal(perGuardrail.result.totalCount, 1)
  assert.equal(perGuardrail.result.data[0]?.keyName, 'sdk key')
  const allKeys = await sdk.guardrails.listKeyAssignments({})
  assert.equal(allKeys.result.data[0]?.keyHash, key.hash)
  assert.equal(
    (await sdk.guardrails.bulkUnassignKeys({ id: data.id, bulkUnassignKeysRequest: { keyHashes: [key.hash] } }))
      .unassignedCount,
    1,
  )

  assert.equal(
    (await sdk.guardrails.bulkAssignMembers({ id: data.id, bulkAssignMembersRequest: { memberUserIds: [ownerId] } }))
      .assignedCount,
    1,
  )
  const members = await sdk.guardrails.listGuardrailMemberAssignments({ id: data.id })
  assert.equal(members.result.data[0]?.userId, ownerId)
  const allMembers = await sdk.guardrails.listMemberAssignments({})
  assert.equal(allMembers.result.totalCount, 1)
  assert.equal(
    (
      await sdk.guardrails.bulkUnassignMembers({
        id: data.id,
        bulkUnassignMembersRequest: { memberUserIds: [ownerId] },
      })
    ).unassignedCount,
    1,
  )

  await assert.rejects(
    sdk.guardrails.bulkUnassignKeys({ id: data.id, bulkUnassignKeysRequest: { keyHashes: [] } }),
    (error: Error & { statusCode?: number }) => error.statusCode === 400,
  )
})
