// Responses API SSE -> canonical stream events. Output items are keyed by `output_index`, text parts by
// `output_index` + `content_index`; `response.completed` / `response.incomplete` carry usage and the
// outcome; `error` and `response.failed` end the stream with an error.

import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { StreamParser } from '../provider-adapter.ts'
import type { SseEvent } from '../sse-framing.ts'
import { parseFrameJson, truncatedStreamError } from '../stream-json.ts'
import { responsesStreamError } from './errors.ts'
import { mapResponsesOutcome } from './finish-reason.ts'
import { readPlainTextDelta } from './plain-text-frame.ts'
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

  push(event: SseEvent): StreamEvent[] {
    if (this.closed || event.data.trim() === '[DONE]') return []
    const text = readPlainTextDelta(event.data)
    if (text !== undefined) return this.delta(text.key, text.text)
    const frame = parseFrameJson(event.data)
    if (!frame.ok) return this.fail(frame.error)
    return this.read(frame.value as ResponsesStreamEvent)
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
