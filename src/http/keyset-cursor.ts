// The opaque cursor of every cursor-style list route: base64url of `<created_at>|<id>` of the last row
// returned. Rows are ordered newest first by (created_at, id), so a cursor names an exact position and
// rows inserted meanwhile (newer) can neither repeat nor hide older ones.
import { GatewayError } from '../domain/errors.ts'

export interface CursorPosition {
  readonly createdAt: string
  readonly id: string
}

const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

export function encodeKeysetCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt}|${position.id}`, 'utf8').toString('base64url')
}

/**
 * The position `cursor` names; a 400 naming `parameter` when it is not a cursor this API issued (or its
 * id does not match the listed rows' `idPattern`).
 */
export function decodeKeysetCursor(cursor: string, parameter: string, idPattern: RegExp): CursorPosition {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : ''
  const [createdAt, id, extra] = text.split('|')
  if (
    createdAt === undefined ||
    id === undefined ||
    extra !== undefined ||
    !isoPattern.test(createdAt) ||
    !idPattern.test(id)
  ) {
    throw new GatewayError(
      'invalid_request',
      `${parameter} is not a cursor this API issued: pass the next_cursor of the previous page unchanged`,
      { metadata: { reason: 'invalid_cursor', retryable: false } },
    )
  }
  return { createdAt, id }
}
