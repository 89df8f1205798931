// Raw upstream chunks -> whole frames, by the framing an adapter declares. Every framer is safe against
// any chunk split, including inside a multi-byte UTF-8 character.
import type { Framing, UpstreamFrame } from './provider-adapter.ts'
import { createSseFramer } from './sse-framing.ts'
import { createJsonValuesFramer } from './json-values-framing.ts'
import { createEventStreamFramer } from './event-stream-framing.ts'

export interface Framer {
  /** Feeds one chunk; returns the frames it completed. */
  push(chunk: Uint8Array | string): UpstreamFrame[]
  /** The upstream closed: flushes a final frame that lacked its terminator; throws on a partial one. */
  end(): UpstreamFrame[]
}

export function createFramer(framing: Framing): Framer {
  switch (framing) {
    case 'sse':
      return createSseFramer()
    case 'aws-event-stream':
      return createEventStreamFramer()
    case 'ndjson':
      return createJsonValuesFramer('ndjson')
    case 'json-array':
      return createJsonValuesFramer('json-array')
  }
}
