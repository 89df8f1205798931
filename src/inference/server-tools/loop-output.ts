// Where the server-tool loop's output goes, item by item: a JSON Response object at the end, or an SSE
// stream (started with the first item) where model items are replayed as canonical events and tool
// items are reported as `response.output_item.added` / `.done` when they start and finish.
import type { Writable } from 'node:stream'
import type { EncodeContext, StreamEncoder } from '../../dialects/dialect.ts'
import { encodeOutputItem } from '../../dialects/openai-responses/response-object.ts'
import type { GatewayError } from '../../domain/errors.ts'
import type { CanonicalResult, OutputItem } from '../../domain/inference/result.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { InferenceRequest } from '../pipeline/inference-request.ts'
import type { Responder } from '../pipeline/responder.ts'

export interface LoopSummary {
  /** Every model item of every step, the summed usage and the last step's finish reason. */
  readonly result: CanonicalResult
  readonly costUsd: number
  readonly completedAt: number
  readonly usageExtra: Readonly<Record<string, unknown>>
  readonly metadata?: Readonly<Record<string, unknown>>
  /** The spend limit that stopped the loop early (`key_limit`, `budget`, `credits`); absent when it finished. */
  readonly incompleteReason?: string
}

export interface LoopSink {
  modelItem(index: number, item: OutputItem): void
  toolItem(index: number, item: Readonly<Record<string, unknown>>, phase: 'added' | 'done'): void
  finish(summary: LoopSummary): void
  /** After a failure: closes a started stream with the format's error event (else the caller answers). */
  fail(error: GatewayError): void
}

type EncodeBase = Omit<EncodeContext, 'costUsd' | 'metadata' | 'completedAt'>

export function jsonLoopSink(request: InferenceRequest, responder: Responder, context: EncodeBase): LoopSink {
  const output = new Map<number, Record<string, unknown>>()
  return {
    modelItem: (index, item) => void output.set(index, encodeOutputItem(item, index, request.generationId)),
    toolItem: (index, item, phase) => void (phase === 'done' && output.set(index, { ...item })),
    finish(summary) {
      const body = request.dialect.encodeResult(summary.result, {
        ...context,
        costUsd: summary.costUsd,
        completedAt: summary.completedAt,
        ...(summary.metadata === undefined ? {} : { metadata: summary.metadata }),
        ...(summary.incompleteReason === undefined ? {} : { incompleteReason: summary.incompleteReason }),
      })
      body.output = [...output.entries()].sort(([a], [b]) => a - b).map(([, item]) => item)
      body.usage = { ...(body.usage as Record<string, unknown>), ...summary.usageExtra }
      responder.sendJson(200, body, { 'x-generation-id': request.generationId })
    },
    fail: () => undefined,
  }
}

export function streamLoopSink(request: InferenceRequest, responder: Responder, context: EncodeBase): LoopSink {
  const encoder: StreamEncoder = request.dialect.createStreamEncoder({ ...context, costUsd: null })
  let body: Writable | null = null
  const write = (text: string): void => {
    if (body === null) {
      body = responder.startStream({ 'x-generation-id': request.generationId }, encoder.start())
    }
    if (!body.writableEnded && text !== '') body.write(text)
  }
  return {
    modelItem: (index, item) =>
      write(
        eventsOf(index, item)
          .map((event) => encoder.push(event))
          .join(''),
      ),
    toolItem: (index, item, phase) => write(encoder.pushOutputItem?.(index, item, phase) ?? ''),
    finish(summary) {
      write('')
      responder.endStream(
        encoder.push({ type: 'usage-report', usage: summary.result.usage }) +
          encoder.push({ type: 'message-end', finish_reason: summary.result.finish_reason }) +
          encoder.finish({
            usage: summary.result.usage,
            costUsd: summary.costUsd,
            completedAt: summary.completedAt,
            usageExtra: summary.usageExtra,
            ...(summary.metadata === undefined ? {} : { metadata: summary.metadata }),
            ...(summary.incompleteReason === undefined ? {} : { incompleteReason: summary.incompleteReason }),
          }),
      )
    },
    fail(error) {
      if (body === null || body.writableEnded) return
      responder.endStream(encoder.fail(error.kind, error.message))
    },
  }
}

/** A finished model item replayed as the canonical events that would have streamed it. */
function eventsOf(index: number, item: OutputItem): StreamEvent[] {
  switch (item.type) {
    case 'text':
      return [
        { type: 'text-start', index },
        { type: 'text-delta', index, delta: item.text },
        { type: 'text-end', index },
      ]
    case 'reasoning': {
      const { type: _type, text, origin, id, ...proof } = item
      return [
        { type: 'reasoning-start', index, origin: origin ?? 'openai-chat', ...(id === undefined ? {} : { id }) },
        ...(text === '' ? [] : [{ type: 'reasoning-delta', index, delta: text } as const]),
        { type: 'reasoning-end', index, ...proof },
      ]
    }
    case 'tool-call':
      return [
        { type: 'tool-call-start', index, id: item.id, name: item.name },
        { type: 'tool-call-delta', index, delta: item.arguments },
        { type: 'tool-call-end', index, ...(item.signature === undefined ? {} : { signature: item.signature }) },
      ]
  }
}
