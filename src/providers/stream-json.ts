// Every stream parser reads JSON from SSE data; a frame that is not JSON ends the stream with an error.

import type { StreamEvent } from '../domain/inference/stream-event.ts'

export type ParsedFrame =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: StreamEvent }

export function parseFrameJson(data: string): ParsedFrame {
  try {
    const value = JSON.parse(data) as unknown
    if (typeof value === 'object' && value !== null) return { ok: true, value }
  } catch {
    // reported below
  }
  return {
    ok: false,
    error: {
      type: 'stream-error',
      kind: 'upstream_error',
      message: `Malformed upstream stream frame: ${data.slice(0, 200)}`,
    },
  }
}

export const truncatedStreamError: StreamEvent = {
  type: 'stream-error',
  kind: 'upstream_error',
  message: 'The upstream stream ended before the message was complete',
}
