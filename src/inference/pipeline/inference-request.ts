// The per-request facts every pipeline step reads.
import type { IncomingHttpHeaders } from 'node:http'
import { randomBytes } from 'node:crypto'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { Dialect } from '../../dialects/dialect.ts'
import type { GenerationApiType } from '../../generations/generation-record.ts'

export interface InferenceRequest {
  readonly generationId: string
  readonly requestId: string
  readonly key: ApiKeyRecord
  readonly dialect: Dialect
  /** Epoch milliseconds when the request arrived. */
  readonly startedAt: number
  readonly headers: IncomingHttpHeaders
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal
  /** `X-OpenRouter-Metadata: enabled` (or the legacy header) was sent. */
  readonly wantsMetadata: boolean
  /** The generation record's api_type; 'completions' when absent (System One questions record 'decisions'). */
  readonly apiType?: GenerationApiType
}

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** `gen-<unix seconds>-<20 random base62 characters>`: matches ^gen-[0-9A-Za-z-]+$. */
export function newGenerationId(nowMs: number): string {
  const bytes = randomBytes(20)
  let suffix = ''
  for (const byte of bytes) suffix += alphabet[byte % alphabet.length]
  return `gen-${Math.floor(nowMs / 1000)}-${suffix}`
}

export function wantsRoutingMetadata(headers: IncomingHttpHeaders): boolean {
  const value = headers['x-openrouter-metadata'] ?? headers['x-openrouter-experimental-metadata']
  return typeof value === 'string' && value.trim().toLowerCase() === 'enabled'
}
