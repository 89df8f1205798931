// Responses API SSE -> canonical stream events. Output items are keyed by `output_index`, text parts by
// `output_index` + `content_index`; `response.completed` / `response.incomplete` carry usage and the
// outcome; `error` and `response.failed` end the stream with an error.

import type { NativeFrame, StreamEvent } from '../../domain/inference/stream-event.ts'
import type { StreamParser } from '../provider-adapter.ts'
import type { SseEvent } from '../sse-framing.ts'
import { parseFrameJson, truncatedStreamError } from '../stream-json.ts'
import { responsesStreamError } from './errors.ts'
import { mapResponsesOutcome } from './finish-reason.ts'
import { PlainTextDeltaReader } from './plain-text-frame.ts'
import { summarySeparator, toUsage } from './response.ts'
import type { ResponsesOutputItem, ResponsesResponse, ResponsesStreamEvent } from './wire.ts'

type Kind = 'text' | 'reasoning' | 'tool-call'

const deltaTypes = {
  text: 'text-delta',
  reasoning: 'reasoning-delta',
  'tool-call': 'tool-call-delta',
} as const satisfies Record<Kind, StreamEvent['type']>

export class ResponsesStreamParser implements StreamParser {
  private closed = false
  private nextIndex = 0
  private hasToolCalls = false
  /** `${output_index}` for items, `${output_index}:${content_index}` for text parts -> open block. */
  private readonly blocks = new Map<string, { kind: Kind; index: number }>()
  private readonly deltas = new PlainTextDeltaReader()

  constructor(private readonly passThrough = false) {}

  push(event: SseEvent): StreamEvent[] {
    const data = event.data
    if (this.closed || data.trim() === '[DONE]') return []
    const text = this.deltas.read(data)
    if (text !== undefined) {
      const events = this.delta(text.key, text.text)
      if (this.passThrough)
        events.push({ type: 'native-frame', event: 'response.output_text.delta', data, sequence: text.sequence })
      return events
    }
    if (this.passThrough) {
      const unread = unreadType(data)
      if (unread !== undefined) return [{ type: 'native-frame', event: unread, data }]
    }
    const frame = parseFrameJson(data)
    if (!frame.ok) return this.fail(frame.error)
    const value = frame.value as ResponsesStreamEvent
    const events = this.read(value)
    if (this.passThrough && typeof value.type === 'string') events.push(nativeFrame(value, data))
    return events
  }

  end(): StreamEvent[] {
    return this.closed ? [] : this.fail(truncatedStreamError)
  }

  private read(event: ResponsesStreamEvent): StreamEvent[] {
    switch (event.type) {
      case 'response.created':
        return [{ type: 'message-start', id: event.response.id, model: event.response.model }]
      case 'response.output_item.added':
        return this.addItem(event.output_index, event.item)
      case 'response.output_item.done':
        return this.finishItem(event.output_index, event.item)
      case 'response.content_part.added':
        return event.part.type === 'output_text' || event.part.type === 'refusal'
          ? this.open(`${event.output_index}:${event.content_index}`, 'text', [
              { type: 'text-start', index: this.nextIndex },
            ])
          : []
      case 'response.content_part.done':
        return this.close(`${event.output_index}:${event.content_index}`, (index) => ({ type: 'text-end', index }))
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return this.delta(`${event.output_index}:${event.content_index}`, event.delta)
      case 'response.function_call_arguments.delta':
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return this.delta(`${event.output_index}`, event.delta)
      case 'response.reasoning_summary_part.added':
        return event.summary_index > 0 ? this.delta(`${event.output_index}`, summarySeparator) : []
      case 'response.completed':
      case 'response.incomplete':
        return this.complete(event.response)
      case 'response.failed':
        return this.fail(responsesStreamError(event.response.error))
      case 'error':
        return this.fail(responsesStreamError(event))
      default:
        return []
    }
  }

  private addItem(outputIndex: number, item: ResponsesOutputItem): StreamEvent[] {
    const index = this.nextIndex
    if (item.type === 'reasoning')
      return this.open(`${outputIndex}`, 'reasoning', [
        { type: 'reasoning-start', index, origin: 'openai-responses', id: item.id },
      ])
    if (item.type !== 'function_call') return []
    this.hasToolCalls = true
    const start: StreamEvent[] = [{ type: 'tool-call-start', index, id: item.call_id, name: item.name }]
    if (item.arguments !== '') start.push({ type: 'tool-call-delta', index, delta: item.arguments })
    return this.open(`${outputIndex}`, 'tool-call', start)
  }

  private finishItem(outputIndex: number, item: ResponsesOutputItem): StreamEvent[] {
    if (item.type === 'reasoning') {
      const encrypted = item.encrypted_content ?? undefined
      return this.close(`${outputIndex}`, (index) =>
        encrypted === undefined
          ? { type: 'reasoning-end', index }
          : { type: 'reasoning-end', index, encrypted_content: encrypted },
      )
    }
    return this.close(`${outputIndex}`, (index) => ({ type: 'tool-call-end', index }))
  }

  private open(key: string, kind: Kind, events: StreamEvent[]): StreamEvent[] {
    this.blocks.set(key, { kind, index: this.nextIndex++ })
    return events
  }

  private close(key: string, end: (index: number) => StreamEvent): StreamEvent[] {
    const block = this.blocks.get(key)
    if (block === undefined) return []
    this.blocks.delete(key)
    return [end(block.index)]
  }

  private delta(key: string, delta: string): StreamEvent[] {
    const block = this.blocks.get(key)
    if (block === undefined || delta === '') return []
    return [{ type: deltaTypes[block.kind], index: block.index, delta }]
  }

  private complete(response: ResponsesResponse): StreamEvent[] {
    this.closed = true
    const outcome = mapResponsesOutcome(response, this.hasToolCalls)
    return [
      { type: 'usage-report', usage: toUsage(response.usage) },
      { type: 'message-end', ...outcome },
    ]
  }

  private fail(error: StreamEvent): StreamEvent[] {
    this.closed = true
    return [error]
  }
}

/** The event types the parser reads for their meaning; a stream passed through leaves the others unparsed. */
const readTypes = new Set([
  'response.created',
  'response.output_item.added',
  'response.content_part.added',
  'response.output_text.delta',
  'response.refusal.delta',
  'response.function_call_arguments.delta',
  'response.reasoning_summary_text.delta',
  'response.reasoning_text.delta',
  'response.reasoning_summary_part.added',
  'response.completed',
  'response.incomplete',
  'response.failed',
  'error',
])

const typeHead = '{"type":"'

/** The type of a frame written type first (as OpenAI writes them) whose meaning is not read; undefined otherwise. */
function unreadType(data: string): string | undefined {
  if (data.slice(0, typeHead.length) !== typeHead) return undefined
  const end = data.indexOf('"', typeHead.length)
  if (end <= typeHead.length) return undefined
  const type = data.slice(typeHead.length, end)
  return type.includes('\\') || readTypes.has(type) ? undefined : type
}

function nativeFrame(value: ResponsesStreamEvent, data: string): NativeFrame {
  return { type: 'native-frame', event: value.type, data, value }
}
