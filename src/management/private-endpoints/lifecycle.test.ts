import { test } from 'node:test'
import assert from 'node:assert/strict'
import { GatewayError } from '../../domain/errors.ts'
import type { PrivateEndpointRecord } from '../../private-endpoints/private-endpoint-record.ts'
import { activationWorkspace, validationFreshnessMs, withChange } from './lifecycle.ts'

const validatedAt = '2026-01-01T00:00:00.000Z'
const draft: PrivateEndpointRecord = {
  id: 'e1',
  organizationId: 'o',
  workspaceId: null,
  modelPermaslug: 'a/b',
  modelName: 'a/b',
  providerSlug: 'openai-chat',
  providerName: 'x',
  api: 'openai-chat',
  upstreamModelId: 'b',
  baseUrl: 'https://h/v1',
  declaredRegion: null,
  declaredZdr: null,
  pricing: { prompt: '1', completion: '1' },
  status: 'draft',
  sealedCredential: null,
  validation: { passed: true, checks: [{ name: 'auth_ok', passed: true }] },
  validatedAt,
  validatedWorkspaceId: 'w1',
  validatedRevision: 3,
  revision: 3,
  everActivated: false,
  idempotencyKey: null,
  idempotencyFingerprint: null,
  createdAt: validatedAt,
  updatedAt: validatedAt,
}
const at = Date.parse(validatedAt)

function reasonOf(record: PrivateEndpointRecord, nowMs: number): unknown {
  try {
    activationWorkspace(record, nowMs)
    return 'activates'
  } catch (error) {
    assert.ok(error instanceof GatewayError)
    assert.equal(error.status, 409)
    return error.metadata?.reason
  }
}

test('a fresh passed validation activates in its workspace', () => {
  assert.equal(activationWorkspace(draft, at + 1000), 'w1')
  assert.equal(reasonOf(draft, at + validationFreshnessMs), 'activates')
})

test('old, outdated, failed or missing validations do not activate', () => {
  assert.equal(reasonOf(draft, at + validationFreshnessMs + 1), 'validation_stale')
  assert.equal(reasonOf({ ...draft, revision: 4 }, at), 'validation_stale')
  assert.equal(
    reasonOf(
      {
        ...draft,
        validation: { passed: false, checks: [{ name: 'auth_ok', passed: false, reason: 'upstream_error' }] },
      },
      at,
    ),
    'not_validated',
  )
  assert.equal(reasonOf({ ...draft, validation: null }, at), 'not_validated')
  assert.equal(reasonOf({ ...draft, status: 'active' }, at), 'invalid_state')
  assert.equal(reasonOf({ ...draft, status: 'disabled' }, at), 'invalid_state')
})

test('a change clears a draft validation but not an active one', () => {
  const changed = withChange(draft, { upstreamModelId: 'c' }, validatedAt)
  assert.equal(changed.validation, null)
  assert.equal(changed.revision, 4)
  assert.notEqual(
    withChange({ ...draft, status: 'active' }, { pricing: { prompt: '2', completion: '2' } }, validatedAt).validation,
    null,
  )
})
