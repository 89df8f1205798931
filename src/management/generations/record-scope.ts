// Which generation records a key may read in a listing or an aggregate: a management key reads its
// organization (optionally one workspace of it), any other key its own workspace, and an intern's own
// key only what keys of its intern made (a key without an intern: only what it made itself).
import { GatewayError } from '../../domain/errors.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import { isInternConfined } from '../../identity/is-visible-to-key.ts'

export interface RecordScope {
  readonly organizationId: string
  readonly workspaceId?: string | undefined
  readonly internId?: string | undefined
  readonly keyHash?: string | undefined
}

export function recordScope(
  key: ApiKeyRecord,
  requested: { readonly workspaceId?: string | undefined; readonly keyHash?: string | undefined },
): RecordScope {
  if (key.kind === 'management')
    return { organizationId: key.organizationId, workspaceId: requested.workspaceId, keyHash: requested.keyHash }
  if (requested.workspaceId !== undefined && requested.workspaceId !== key.workspaceId)
    throw new GatewayError('not_found', `Workspace ${requested.workspaceId} is not the workspace of this API key`)
  const scope = { organizationId: key.organizationId, workspaceId: key.workspaceId }
  if (!isInternConfined(key)) return { ...scope, keyHash: requested.keyHash }
  if (key.internId !== null) return { ...scope, internId: key.internId, keyHash: requested.keyHash }
  if (requested.keyHash !== undefined && requested.keyHash !== key.hash)
    throw new GatewayError('not_found', `API key ${requested.keyHash} is not visible to this key`)
  return { ...scope, keyHash: key.hash }
}
