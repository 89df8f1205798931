// The per-request facts every step of a client-dialect call reads: the core's request plus the dialect.
import type { IncomingHttpHeaders } from 'node:http'
import type { Dialect } from '../../dialects/dialect.ts'
import type { GenerationApiType } from '../../generations/generation-record.ts'
import type { CallRequest } from '../call/call-request.ts'

export interface InferenceRequest extends CallRequest {
  readonly dialect: Dialect
  /** `X-OpenRouter-Metadata: enabled` (or the legacy header) was sent. */
  readonly wantsMetadata: boolean
  /** The generation record's api_type; 'completions' when absent (System One questions record 'decisions'). */
  readonly apiType?: GenerationApiType
}
export function wantsRoutingMetadata(headers: IncomingHttpHeaders): boolean {
  const value = headers['x-openrouter-metadata'] ?? headers['x-openrouter-experimental-metadata']
  return typeof value === 'string' && value.trim().toLowerCase() === 'enabled'
}
