// The opaque `next_cursor` of GET /interns: base64url of `<created_at>|<id>` of the last row returned.
// Rows are ordered newest first by (created_at, id), so a cursor names an exact position and rows
// inserted meanwhile (newer) can neither repeat nor hide older ones.
import { GatewayError } from '../../domain/errors.ts'

export interface CursorPosition {
  readonly createdAt: string
  readonly id: string
}

const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

export function encodeInternCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt}|${position.id}`, 'utf8').toString('base64url')
}

export function decodeInternCursor(cursor: string): CursorPosition {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : ''
  const [createdAt, id, extra] = text.split('|')
  if (
    createdAt === undefined ||
    id === undefined ||
    extra !== undefined ||
    !isoPattern.test(createdAt) ||
    !/^[0-9a-f-]{36}$/.test(id)
  ) {
    throw new GatewayError(
      'invalid_request',
      'starting_after is not a cursor this API issued: pass the next_cursor of the previous page unchanged',
      {
        metadata: { reason: 'invalid_cursor', retryable: false },
      },
    )
  }
  return { createdAt, id }
}
