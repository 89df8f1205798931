// Who calls an intern or vault route: the key's workspace is the scope (no default-workspace fallback),
// and an intern's own key is confined to its intern.
import type { FastifyRequest } from 'fastify'
import { GatewayError } from '../../domain/errors.ts'
import { isInternConfined } from '../../identity/is-visible-to-key.ts'

export interface Caller {
  readonly workspaceId: string
  /** Set for an intern's own key: the only intern it may see. */
  readonly internId: string | null
  readonly isInternKey: boolean
}

export function callerOf(request: FastifyRequest): Caller {
  const key = request.principal?.key
  if (key === undefined)
    throw new GatewayError('unauthorized', 'Missing Authentication header: send "Authorization: Bearer <API key>"')
  return { workspaceId: key.workspaceId, internId: key.internId, isInternKey: isInternConfined(key) }
}
