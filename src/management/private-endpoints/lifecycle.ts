// The state rules of a private endpoint: draft -> (validate, activate) -> active <-> disabled. Pure
// functions over a record; the service does the I/O.
import { GatewayError } from '../../domain/errors.ts'
import type { CheckReason } from '../../domain/endpoint-validation.ts'
import type { PrivateEndpointRecord } from '../../private-endpoints/private-endpoint-record.ts'

/** A passed validation older than this no longer activates (reason validation_stale). */
export const validationFreshnessMs = 60 * 60 * 1000

function conflict(message: string, reason?: CheckReason | 'invalid_state'): GatewayError {
  return new GatewayError('conflict', message, reason === undefined ? {} : { metadata: { reason } })
}

/** Throws 409 unless the record may be activated now; returns the workspace it activates in. */
export function activationWorkspace(record: PrivateEndpointRecord, nowMs: number): string {
  if (record.status === 'active') throw conflict(`Private endpoint ${record.id} is already active`, 'invalid_state')
  if (record.status === 'disabled')
    throw conflict(
      `Private endpoint ${record.id} is disabled; POST /private-endpoints/${record.id}/enable to route it again`,
      'invalid_state',
    )
  if (record.validation === null || record.validatedWorkspaceId === null || record.validatedAt === null) {
    throw conflict(
      `Private endpoint ${record.id} has not been validated since its last change; POST /private-endpoints/${record.id}/validate first`,
      'not_validated',
    )
  }
  if (record.validatedRevision !== record.revision || nowMs - Date.parse(record.validatedAt) > validationFreshnessMs) {
    throw conflict(`The validation of private endpoint ${record.id} is stale; validate it again`, 'validation_stale')
  }
  if (!record.validation.passed) {
    const failed = record.validation.checks.filter((check) => !check.passed).map((check) => check.name)
    throw conflict(
      `The last validation of private endpoint ${record.id} failed (${failed.join(', ')}); fix the endpoint and validate again`,
      'not_validated',
    )
  }
  return record.validatedWorkspaceId
}

export function assertDraft(record: PrivateEndpointRecord, action: string): void {
  if (record.status !== 'draft') {
    throw conflict(
      `Only draft endpoints can be ${action}; private endpoint ${record.id} is ${record.status} (delete it and create a new one)`,
      'invalid_state',
    )
  }
}

export function assertStatus(
  record: PrivateEndpointRecord,
  expected: PrivateEndpointRecord['status'],
  action: string,
): void {
  if (record.status !== expected)
    throw conflict(
      `Only ${expected} endpoints can be ${action}; private endpoint ${record.id} is ${record.status}`,
      'invalid_state',
    )
}

/** The record after a change to its definition: a draft loses its validation. */
export function withChange(
  record: PrivateEndpointRecord,
  changes: Partial<PrivateEndpointRecord>,
  nowIso: string,
): PrivateEndpointRecord {
  const next = { ...record, ...changes, revision: record.revision + 1, updatedAt: nowIso }
  if (record.status !== 'draft') return next
  return { ...next, validation: null, validatedAt: null, validatedWorkspaceId: null, validatedRevision: null }
}
