// What the pipeline learns about a call as it goes; the one `finally` turns it into the generation
// record, the settlement and the broadcast, whatever the outcome.
import type { AttemptRecord } from '../../domain/inference/attempt-record.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import type { GatewayError } from '../../domain/errors.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { PreparedCall } from './prepare-call.ts'
import type { Meter } from '../call/metered-call.ts'
import { usageBill } from './usage-bill.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { CachedDialectAnswer } from './cached-dialect-answer.ts'

const noHeaders: Readonly<Record<string, string>> = Object.freeze({})

export interface CallFacts {
  prepared: PreparedCall | null
  endpoint: EndpointEntry | null
  attempts: readonly AttemptRecord[]
  streamed: boolean
  cancelled: boolean
  upstreamId: string | null
  usage: Usage | null
  /** What the call is billed: its priced usage, at most its reservation. */
  costNano: bigint
  /** What its priced usage came to above its reservation, left unbilled. */
  unbilledExcessNano: bigint
  finishReason: string | null
  nativeFinishReason: string | null
  completion: string | null
  reasoning: string | null
  latencyMs: number | null
  /** Epoch milliseconds of the first streamed token (null when not streamed). */
  firstTokenAtMs: number | null
  generationTimeMs: number | null
  error: GatewayError | null
  /** Headers the response cache adds to a 200 answer (X-OpenRouter-Cache-Status, -TTL). */
  answerHeaders: Readonly<Record<string, string>>
  /** Non-null while the response cache captures this call's answer: a stream's upstream reads, kept as they pass. */
  capturedBatches: StreamEvent[][] | null
  /** The answer as the response cache keeps it, once a captured call answered in full. */
  captured: CachedDialectAnswer | null
  /** The generation whose cached answer this call replayed (a cache hit); else null. */
  cacheSourceId: string | null
}

export function newCallFacts(): CallFacts {
  return {
    prepared: null,
    endpoint: null,
    attempts: [],
    streamed: false,
    cancelled: false,
    upstreamId: null,
    usage: null,
    costNano: 0n,
    unbilledExcessNano: 0n,
    finishReason: null,
    nativeFinishReason: null,
    completion: null,
    reasoning: null,
    latencyMs: null,
    firstTokenAtMs: null,
    generationTimeMs: null,
    error: null,
    answerHeaders: noHeaders,
    capturedBatches: null,
    captured: null,
    cacheSourceId: null,
  }
}

/**
 * Charges the call's priced usage to its meter (settled by the core after the attempt): the cost the
 * answer reports is the cost billed, at most the reservation.
 */
export function chargeUsage(facts: CallFacts, meter: Meter, endpoint: EndpointEntry, usage: Usage): void {
  const charge = meter.charge(usageBill(facts.prepared!, endpoint, usage))
  facts.costNano = charge.billedNano
  facts.unbilledExcessNano = charge.unbilledExcessNano
}

/** The answer's headers: its generation id, plus the response cache's when it used the cache. */
export function answerHeaders(facts: CallFacts, generationId: string): Record<string, string> {
  const headers: Record<string, string> = { 'x-generation-id': generationId }
  return facts.answerHeaders === noHeaders ? headers : Object.assign(headers, facts.answerHeaders)
}
