// The per-request facts every pipeline step reads.
import type { IncomingHttpHeaders } from 'node:http'
import { randomFillSync } from 'node:crypto'
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
const idLength = 20
/** Random bytes drawn 4 KiB at a time: one randomFillSync per ~200 ids instead of one per id. */
const pool = Buffer.alloc(4096)
let poolOffset = pool.length

/** `gen-<unix seconds>-<20 random base62 characters>`: matches ^gen-[0-9A-Za-z-]+$. */
export function newGenerationId(nowMs: number): string {
  if (poolOffset + idLength > pool.length) {
    randomFillSync(pool)
    poolOffset = 0
  }
  let suffix = ''
  for (let index = poolOffset; index < poolOffset + idLength; index++) suffix += alphabet[pool[index]! % alphabet.length]
  poolOffset += idLength
  return `gen-${Math.floor(nowMs / 1000)}-${suffix}`
}

export function wantsRoutingMetadata(headers: IncomingHttpHeaders): boolean {
  const value = headers['x-openrouter-metadata'] ?? headers['x-openrouter-experimental-metadata']
  return typeof value === 'string' && value.trim().toLowerCase() === 'enabled'
}
