// The per-request facts every pipeline step reads.
import type { IncomingHttpHeaders } from 'node:http'
import { randomFillSync } from 'node:crypto'
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

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const idLength = 20
/**
 * The first characters of the suffix count up (base62, fixed width) in one process, so the ids of one
 * second sort in the order they were made. Stores index generation ids (and the ledger's
 * `<generationId>:<attempt>`): ids that sort by creation are appended at the right edge of those
 * B-trees, where random ones land on a different page each, and every page touched is a page written
 * at commit. The rest is random; 16 base62 characters are ~95 bits.
 */
const sequenceLength = 4
const sequenceSpan = alphabet.length ** sequenceLength
/** Random bytes drawn 4 KiB at a time: one randomFillSync per ~250 ids instead of one per id. */
const pool = Buffer.alloc(4096)
let poolOffset = pool.length
let sequence = 0

/** `gen-<unix seconds>-<20 base62 characters>`: matches ^gen-[0-9A-Za-z-]+$; see `sequenceLength`. */
export function newGenerationId(nowMs: number): string {
  const randomLength = idLength - sequenceLength
  if (poolOffset + randomLength > pool.length) {
    randomFillSync(pool)
    poolOffset = 0
  }
  let suffix = ''
  for (let rest = sequence, place = 0; place < sequenceLength; place++, rest = Math.floor(rest / alphabet.length)) {
    suffix = alphabet[rest % alphabet.length]! + suffix
  }
  sequence = (sequence + 1) % sequenceSpan
  for (let index = poolOffset; index < poolOffset + randomLength; index++)
    suffix += alphabet[pool[index]! % alphabet.length]
  poolOffset += randomLength
  return `gen-${Math.floor(nowMs / 1000)}-${suffix}`
}

export function wantsRoutingMetadata(headers: IncomingHttpHeaders): boolean {
  const value = headers['x-openrouter-metadata'] ?? headers['x-openrouter-experimental-metadata']
  return typeof value === 'string' && value.trim().toLowerCase() === 'enabled'
}
