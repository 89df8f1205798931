// The `x-session-id` header (sticky routing and the generation's session), when the body names none.
import type { IncomingHttpHeaders } from 'node:http'
import { GatewayError } from '../../domain/errors.ts'

export function sessionHeader(headers: IncomingHttpHeaders): string | null {
  const value = headers['x-session-id']
  if (typeof value !== 'string' || value === '') return null
  if (value.length > 256)
    throw new GatewayError(
      'invalid_request',
      'Invalid request parameters: the x-session-id header must be at most 256 characters',
    )
  return value
}
