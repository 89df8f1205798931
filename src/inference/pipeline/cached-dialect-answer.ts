// A client-dialect answer as the response cache keeps it: the canonical result of a JSON answer, or the
// canonical events of a streamed one in their upstream reads, with the endpoint that produced it. A hit
// is answered by encoding them again for the new generation (its id and created time) with every usage
// counter at zero, so a streamed hit goes through the same streaming path and the client gets the same
// chunks.
import type { CanonicalResult } from '../../domain/inference/result.ts'
import type { PassThroughFormat, StreamEvent } from '../../domain/inference/stream-event.ts'
import { emptyUsage } from '../../domain/inference/usage.ts'

export type CachedDialectAnswer =
  | { readonly kind: 'result'; readonly endpointId: string; readonly result: CanonicalResult }
  | { readonly kind: 'stream'; readonly endpointId: string; readonly batches: readonly (readonly StreamEvent[])[] }

/** The events of a stream, batch by batch, whatever their source (an upstream, or a cached answer). */
export interface EventBatches {
  /** With `passThrough` (only when `passThroughFormat` is the client's), each frame also comes as a `native-frame`. */
  batches(passThrough?: boolean): AsyncIterable<readonly StreamEvent[]>
  /** The body sent upstream (for `debug.echo_upstream_body`); absent when the events are a cached answer's. */
  readonly sentBody?: Readonly<Record<string, unknown>>
  /** The client format the upstream's stream is written in, when it is one; absent for a cached answer. */
  readonly passThroughFormat?: PassThroughFormat
}

/** The cached form of a client-dialect answer, when the stored JSON is one (an entry of another shape is a miss). */
export function readCachedDialectAnswer(payload: unknown): CachedDialectAnswer | null {
  if (typeof payload !== 'object' || payload === null || !('kind' in payload) || !('endpointId' in payload)) return null
  if (typeof payload.endpointId !== 'string') return null
  if (payload.kind === 'result' && 'result' in payload && isObject(payload.result))
    return { kind: 'result', endpointId: payload.endpointId, result: payload.result as unknown as CanonicalResult }
  if (payload.kind === 'stream' && 'batches' in payload && Array.isArray(payload.batches))
    return { kind: 'stream', endpointId: payload.endpointId, batches: payload.batches as StreamEvent[][] }
  return null
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** The cached result with every usage counter at zero (a hit bills nothing). */
export function unbilledResult(result: CanonicalResult): CanonicalResult {
  return { ...result, usage: emptyUsage }
}

/** Replays cached events with a zero usage report (one is added before the message's end when none was cached). */
export function unbilledEvents(batches: readonly (readonly StreamEvent[])[]): EventBatches {
  return {
    async *batches() {
      let reported = false
      for (const batch of batches) {
        const replayed: StreamEvent[] = []
        for (const event of batch) {
          if (event.type === 'usage-report') {
            reported = true
            replayed.push({ type: 'usage-report', usage: emptyUsage })
            continue
          }
          if (event.type === 'message-end' && !reported) {
            reported = true
            replayed.push({ type: 'usage-report', usage: emptyUsage })
          }
          replayed.push(event)
        }
        yield replayed
      }
    },
  }
}

/** Whether captured events make a whole answer: a message that ended, with no error. */
export function isWholeStream(batches: readonly (readonly StreamEvent[])[]): boolean {
  let ended = false
  for (const batch of batches) {
    for (const event of batch) {
      if (event.type === 'stream-error') return false
      if (event.type === 'message-end') ended = true
    }
  }
  return ended
}
