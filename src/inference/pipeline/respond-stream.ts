// A streaming answer: upstream events are translated into the client's SSE format as they arrive and
// tallied on the way; the frames of one upstream read go to the client as one write, and a client that
// reads slowly holds the upstream back (backpressure). The frames from the message's end on wait for the
// closing frames (usage, cost, the terminator), which follow the upstream's end: when a fast upstream's
// whole answer comes in one read, its last frames and the closing ones leave in one write, not two, once
// the responder delivers them (after the call is recorded, `deliver-when-durable.ts`). A
// client that disconnects aborts the upstream call; what was produced until then is still billed. A
// failure after the stream started is sent as the format's error event. When the upstream speaks the
// client's format, its events pass through (`native-frame`s, DESIGN.md section 3) unless the answer is
// being kept for the response cache, which keeps canonical events.
import type { Writable } from 'node:stream'
import type { Responder } from './responder.ts'
import type { StreamEncoder } from '../../dialects/dialect.ts'
import type { CancelSignal } from '../../domain/cancellation.ts'
import { drained } from './drained.ts'
import { makeUsage, type Usage } from '../../domain/inference/usage.ts'
import { GatewayError } from '../../domain/errors.ts'
import { nanoToUsd } from '../../domain/money.ts'
import type { Clock } from '../../domain/clock.ts'
import { countInputTokens } from '../tokens/count-input-tokens.ts'
import { loadTokenizer } from '../tokens/load-tokenizer.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import { answerHeaders, chargeUsage, type CallFacts } from './call-facts.ts'
import { isWholeStream, type EventBatches } from './cached-dialect-answer.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { InferenceRequest } from './inference-request.ts'
import { StreamTally } from './stream-tally.ts'
import { optional } from './respond-json.ts'
import type { Meter } from '../call/metered-call.ts'

export async function respondStream(
  request: InferenceRequest,
  responder: Responder,
  events: EventBatches,
  endpoint: EndpointEntry,
  facts: CallFacts,
  meter: Meter,
  clock: Clock,
  metadata: () => Record<string, unknown> | undefined,
): Promise<void> {
  const passThrough = events.passThroughFormat === request.dialect.name && facts.capturedBatches === null
  const encoder = request.dialect.createStreamEncoder({
    passThrough,
    generationId: request.generationId,
    model: facts.prepared!.models[0]!,
    provider: endpoint.provider.name,
    createdAt: Math.floor(request.startedAt / 1000),
    costUsd: null,
    isByok: false,
    echo: facts.prepared!.decoded.echo,
  })
  const echo = echoFrame(encoder, facts, events)
  const body = responder.startStream(answerHeaders(facts, request.generationId), echo + encoder.start())
  facts.streamed = true
  const tally = new StreamTally()
  const batches = events.batches(passThrough)
  const held = await relayEvents(batches, encoder, body, tally, clock, request.signal, facts.capturedBatches)
  facts.cancelled = request.signal.aborted
  const captured = facts.capturedBatches
  if (captured !== null && !facts.cancelled && tally.error === null && isWholeStream(captured))
    facts.captured = { kind: 'stream', endpointId: endpoint.id, batches: captured }
  await settleTally(tally, facts, meter, endpoint)
  if (tally.error !== null) facts.error = new GatewayError(tally.error.kind, tally.error.message)
  // A client that left gets nothing more, not even the frames held back.
  if (!body.writableEnded)
    responder.endStream(facts.cancelled ? '' : held + closingFrames(encoder, tally, facts, clock, metadata))
  facts.generationTimeMs = clock.now().getTime() - request.startedAt
}

/** `debug.echo_upstream_body`: the body sent upstream, when the request asked for it and one was sent (not on a cache hit). */
function echoFrame(encoder: StreamEncoder, facts: CallFacts, events: EventBatches): string {
  if (facts.prepared!.decoded.options.debug?.echo_upstream_body !== true || events.sentBody === undefined) return ''
  return encoder.debug(events.sentBody)
}

/**
 * Tallies and encodes the upstream's events, one write per upstream read, until the stream ends or
 * fails. The frames from the message's end on are not written but returned, to go out with the
 * closing frames.
 */
async function relayEvents(
  batches: AsyncIterable<readonly StreamEvent[]>,
  encoder: StreamEncoder,
  body: Writable,
  tally: StreamTally,
  clock: Clock,
  signal: CancelSignal,
  captured: StreamEvent[][] | null,
): Promise<string> {
  let ending = false
  let held = ''
  try {
    for await (const batch of batches) {
      if (captured !== null) captured.push([...batch])
      const now = clock.now().getTime()
      let frames = ''
      let hasFailed = false
      for (const event of batch) {
        tally.add(event, now)
        frames += encoder.push(event)
        if (event.type === 'message-end') ending = true
        if (event.type === 'stream-error') {
          hasFailed = true
          break
        }
      }
      if (ending) held += frames
      else if (frames !== '' && !body.writableEnded && !body.write(frames)) await drained(body, signal)
      if (hasFailed) break
    }
  } catch (error) {
    if (!signal.aborted)
      tally.error = { kind: 'upstream_error', message: `The provider's stream failed: ${(error as Error).message}` }
  }
  return held
}

/** The format's error event after a failure; otherwise usage, cost and the terminator. */
function closingFrames(
  encoder: StreamEncoder,
  tally: StreamTally,
  facts: CallFacts,
  clock: Clock,
  metadata: () => Record<string, unknown> | undefined,
): string {
  if (tally.error !== null) return encoder.fail(tally.error.kind, tally.error.message)
  return encoder.finish({
    usage: facts.usage!,
    costUsd: nanoToUsd(facts.costNano),
    completedAt: Math.floor(clock.now().getTime() / 1000),
    ...optional('metadata', metadata()),
  })
}

async function settleTally(tally: StreamTally, facts: CallFacts, meter: Meter, endpoint: EndpointEntry): Promise<void> {
  const usage = tally.usage ?? (await countedUsage(tally, facts, endpoint))
  facts.usage = usage
  chargeUsage(facts, meter, endpoint, usage)
  facts.upstreamId = tally.upstreamId
  facts.finishReason = tally.finishReason ?? (facts.cancelled ? 'cancelled' : tally.error === null ? null : 'error')
  facts.nativeFinishReason = tally.nativeFinishReason
  facts.completion = tally.text
  facts.firstTokenAtMs = tally.firstTokenAt
  facts.reasoning = tally.reasoning
}

/** The usage of a stream that ended without the upstream's: its input and output counted with the model's tokenizer. */
async function countedUsage(tally: StreamTally, facts: CallFacts, endpoint: EndpointEntry): Promise<Usage> {
  const tokenizer = await loadTokenizer(endpoint.upstreamModelId)
  return makeUsage({
    input_tokens: countInputTokens(facts.prepared!.decoded.call, tokenizer),
    output_tokens: tally.countOutputTokens(tokenizer),
  })
}
