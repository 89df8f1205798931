// What the pipeline learns about a call as it goes; the one `finally` turns it into the generation
// record, the settlement and the broadcast, whatever the outcome.
import type { AttemptRecord } from '../../domain/inference/attempt-record.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import type { GatewayError } from '../../domain/errors.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { PreparedCall } from './prepare-call.ts'
import { splitCharge } from '../../accounting/split-charge.ts'

export interface CallFacts {
  prepared: PreparedCall | null
  endpoint: EndpointEntry | null
  attempts: readonly AttemptRecord[]
  streamed: boolean
  cancelled: boolean
  upstreamId: string | null
  usage: Usage | null
  /** The call's reservation, which bounds what it is billed (null before it is taken). */
  reservedNano: bigint | null
  /** What the call is billed: its priced usage, at most `reservedNano`. */
  costNano: bigint
  /** What its priced usage came to above `reservedNano`, left unbilled. */
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
    reservedNano: null,
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
  }
}

/** Bills the priced usage up to the reservation, so the cost the answer reports is the cost billed. */
export function chargeUsage(facts: CallFacts, pricedNano: bigint): void {
  const charge = splitCharge(facts.reservedNano ?? pricedNano, pricedNano)
  facts.costNano = charge.billedNano
  facts.unbilledExcessNano = charge.unbilledExcessNano
}
