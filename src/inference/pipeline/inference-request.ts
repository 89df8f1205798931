// The per-request facts every pipeline step reads.
import type { IncomingHttpHeaders } from 'node:http'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { Dialect } from '../../dialects/dialect.ts'
import type { GenerationApiType } from '../../generations/generation-record.ts'
import type { CancelSignal } from '../../domain/cancellation.ts'

export interface InferenceRequest {
  readonly generationId: string
  readonly requestId: string
  readonly key: ApiKeyRecord
  readonly dialect: Dialect
  /** Epoch milliseconds when the request arrived. */
  readonly startedAt: number
  readonly headers: IncomingHttpHeaders
  /** Aborted when the client goes away. */
  readonly signal: CancelSignal
  /** `X-OpenRouter-Metadata: enabled` (or the legacy header) was sent. */
  readonly wantsMetadata: boolean
  /** The generation record's api_type; 'completions' when absent (System One questions record 'decisions'). */
  readonly apiType?: GenerationApiType
}

export function wantsRoutingMetadata(headers: IncomingHttpHeaders): boolean {
  const value = headers['x-openrouter-metadata'] ?? headers['x-openrouter-experimental-metadata']
  return typeof value === 'string' && value.trim().toLowerCase() === 'enabled'
}
