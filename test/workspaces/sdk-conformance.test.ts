// The official @openrouter/sdk drives every workspace route over a real socket and must accept our
// responses (its zod schemas reject any shape drift).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { OpenRouter } from '@openrouter/sdk'
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts'
import { addOrganizationMember } from './management-fixtures.ts'

let gateway: TestGateway
let sdk: OpenRouter

before(async () => {
  gateway = await startTestGateway()
  const base = await gateway.listen()
  sdk = new OpenRouter({ apiKey: gateway.adminKey, serverURL: `${base}/api/v1` })
})
after(() => gateway.close())

test('@openrouter/sdk workspaces: create, get, list, update, members, budgets, delete', async () => {
  const created = await sdk.workspaces.create({
    createWorkspaceRequest: {
      name: 'SDK team',
      slug: 'sdk-team',
      disabledServerTools: ['openrouter:web_search'],
      ioLoggingApiKeyIds: [7],
      ioLoggingSamplingRate: 0.5,
    },
  })
  assert.equal(created.data.slug, 'sdk-team')
  assert.deepEqual(created.data.disabledServerTools, ['openrouter:web_search'])
  assert.deepEqual(created.data.ioLoggingApiKeyIds, [7])
  assert.match(created.data.defaultGuardrailId, /^[0-9a-f-]{36}$/)
  const id = created.data.id

  assert.equal((await sdk.workspaces.get({ id: 'sdk-team' })).data.id, id)
  const listed = await sdk.workspaces.list({ limit: 10 })
  assert.equal(listed.result.totalCount, 2)
  assert.deepEqual(listed.result.data.map((workspace) => workspace.slug).sort(), ['default', 'sdk-team'])

  const updated = await sdk.workspaces.update({
    id,
    updateWorkspaceRequest: { description: 'via SDK', defaultProviderSort: 'price' },
  })
  assert.equal(updated.data.description, 'via SDK')
  assert.equal(updated.data.defaultProviderSort, 'price')

  const userId = await addOrganizationMember(gateway, 'sdk-member@example.com', 'admin')
  const added = await sdk.workspaces.bulkAddMembers({ id, bulkAddWorkspaceMembersRequest: { userIds: [userId] } })
  assert.equal(added.addedCount, 1)
  assert.equal(added.data[0]?.role, 'admin')
  const members = await sdk.workspaces.listMembers({ id })
  assert.equal(members.result.totalCount, 1)
  assert.equal(members.result.data[0]?.userId, userId)
  const implicit = await sdk.workspaces.listMembers({ id: 'default' })
  assert.equal(implicit.result.totalCount, 2)
  const removed = await sdk.workspaces.bulkRemoveMembers({
    id,
    bulkRemoveWorkspaceMembersRequest: { userIds: [userId] },
  })
  assert.equal(removed.removedCount, 1)

  const budget = await sdk.workspaces.setBudget({
    workspaceRef: id,
    interval: 'monthly',
    upsertWorkspaceBudgetRequest: { limitUsd: 100, includeByokInBudgets: true },
  })
  assert.equal(budget.data.limitUsd, 100)
  assert.equal(budget.data.resetInterval, 'monthly')
  assert.equal(budget.includeByokInBudgets, true)
  await sdk.workspaces.setBudget({
    workspaceRef: id,
    interval: 'lifetime',
    upsertWorkspaceBudgetRequest: { limitUsd: 500 },
  })
  const budgets = await sdk.workspaces.listBudgets({ workspaceRef: id })
  assert.deepEqual(budgets.data.map((item) => item.resetInterval).sort(), ['monthly', null].sort())
  assert.equal((await sdk.workspaces.getBudget({ workspaceRef: 'sdk-team', interval: 'lifetime' })).data.limitUsd, 500)
  assert.equal((await sdk.workspaces.deleteBudget({ workspaceRef: id, interval: 'monthly' })).deleted, true)

  assert.equal((await sdk.workspaces.delete({ id })).deleted, true)
  await assert.rejects(sdk.workspaces.get({ id }), (error: Error & { statusCode?: number }) => error.statusCode === 404)
})

test('@openrouter/sdk surfaces our error envelope for a refused default-workspace deletion', async () => {
  await assert.rejects(sdk.workspaces.delete({ id: 'default' }), (error: Error & { statusCode?: number }) => {
    assert.equal(error.statusCode, 400)
    assert.match(error.message, /confirm_default_workspace_deletion/)
    return true
  })
})
