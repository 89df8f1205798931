// Canonical stream events -> the Responses API event stream: response.created, response.in_progress,
// per output item `output_item.added` ... `output_item.done` (with content-part, text, reasoning
// summary and function-call-argument events), then response.completed | response.incomplete |
// response.failed carrying the whole response, then `data: [DONE]`. Every event has a
// `sequence_number`; frames are `event: <type>\ndata: <json>\n\n`.
//
// A failure after the start sends an `error` event (`{code, message, param}`) and then
// `response.failed` with the error on the response; the official SDK yields both.

import type { ErrorKind } from '../../domain/errors.ts'
import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import type { OutputItem } from '../../domain/inference/result.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import type { EncodeContext, StreamEncoder, StreamFinish } from '../dialect.ts'
import { doneSseFrame, namedSseFrame } from '../sse-frames.ts'
import { responsesErrorCodes } from './encode-error.ts'
import {
  buildResponseObject,
  encodeOutputItem,
  failedOutcome,
  functionCallItem,
  inProgressOutcome,
  messageItem,
  outcomeOf,
  outputItemId,
  outputTextPart,
  reasoningItem,
  summaryPart,
} from './response-object.ts'
import type { ResponseState } from './response-object.ts'
import { withFields } from '../../domain/with-fields.ts'

const terminalEvents = {
  completed: 'response.completed',
  incomplete: 'response.incomplete',
  failed: 'response.failed',
  in_progress: 'response.in_progress',
} as const

export function createResponsesStreamEncoder(context: EncodeContext): StreamEncoder {
  return new ResponsesStreamEncoder(context)
}

export class ResponsesStreamEncoder implements StreamEncoder {
  protected sequence = 0
  protected closed = false
  private readonly items: OutputItem[] = []
  /** Items the gateway produced (server tools), by output index. */
  private readonly gatewayItems = new Map<number, Readonly<Record<string, unknown>>>()
  /** Output indexes whose item has ended; the others are reported as incomplete if the stream fails. */
  private readonly ended = new Set<number>()
  /** Per output index, the position fields of its delta events as JSON text (built once per item). */
  private readonly deltaPositions: string[] = []
  private finishReason: FinishReason = 'stop'
  private usage: Usage | undefined

  constructor(protected readonly context: EncodeContext) {}

  /** `response.debug` (sequence 0; `response.created` follows), as @openrouter/sdk's DebugEvent. */
  debug(upstreamBody: Readonly<Record<string, unknown>>): string {
    return this.frame('response.debug', { debug: { echo_upstream_body: upstreamBody } })
  }

  start(): string {
    const response = JSON.stringify(this.response({ output: [], outcome: inProgressOutcome }))
    return this.responseFrame('response.created', response) + this.responseFrame('response.in_progress', response)
  }

  push(event: StreamEvent): string {
    if (this.closed) return ''
    switch (event.type) {
      case 'message-start':
      case 'native-frame':
        return ''
      case 'text-start':
        this.items[event.index] = { type: 'text', text: '' }
        return (
          this.frame('response.output_item.added', {
            output_index: event.index,
            item: messageItem('', event.index, this.id(), 'in_progress'),
          }) +
          this.frame(
            'response.content_part.added',
            withFields(this.textPosition(event.index), { part: outputTextPart('') }),
          )
        )
      case 'text-delta':
        return this.textDelta(event.index, event.delta)
      case 'text-end':
        return this.textEnd(event.index)
      case 'reasoning-start':
        this.items[event.index] = {
          type: 'reasoning',
          text: '',
          origin: event.origin,
          ...(event.id === undefined ? {} : { id: event.id }),
        }
        return this.frame('response.output_item.added', {
          output_index: event.index,
          item: reasoningItem({ text: '', origin: event.origin, id: event.id }, event.index, this.id(), false),
        })
      case 'reasoning-delta':
        return this.reasoningDelta(event.index, event.delta)
      case 'reasoning-end': {
        const { type: _type, index, ...proof } = event
        return this.reasoningEnd(index, proof)
      }
      case 'tool-call-start':
        this.items[event.index] = { type: 'tool-call', id: event.id, name: event.name, arguments: '' }
        return this.frame('response.output_item.added', {
          output_index: event.index,
          item: functionCallItem({ ...event, arguments: '' }, event.index, this.id(), 'in_progress'),
        })
      case 'tool-call-delta':
        return this.toolCallDelta(event.index, event.delta)
      case 'tool-call-end':
        return this.toolCallEnd(event.index, event.signature)
      case 'usage-report':
        this.usage = event.usage
        return ''
      case 'message-end':
        this.finishReason = event.finish_reason
        return ''
      case 'stream-error':
        return this.fail(event.kind, event.message)
    }
  }

  pushOutputItem(index: number, item: Readonly<Record<string, unknown>>, phase: 'added' | 'done'): string {
    if (this.closed) return ''
    this.gatewayItems.set(index, item)
    return this.frame(phase === 'added' ? 'response.output_item.added' : 'response.output_item.done', {
      output_index: index,
      item,
    })
  }

  finish(final: StreamFinish): string {
    if (this.closed) return ''
    this.closed = true
    const outcome = outcomeOf(this.finishReason, final.incompleteReason)
    const response = this.response({
      output: this.finalOutput(),
      outcome,
      usage: final.usage,
      costUsd: final.costUsd,
      completedAt: final.completedAt ?? this.context.createdAt,
      metadata: final.metadata,
      usageExtra: final.usageExtra,
    })
    return this.frame(terminalEvents[outcome.status], { response }) + doneSseFrame
  }

  fail(kind: ErrorKind, message: string): string {
    if (this.closed) return ''
    this.closed = true
    const code = responsesErrorCodes[kind]
    const response = this.response({
      output: this.encodedItems(),
      outcome: failedOutcome(code, message),
      usage: this.usage,
      costUsd: null,
    })
    return (
      this.frame('error', { code, message, param: null }) + this.frame('response.failed', { response }) + doneSseFrame
    )
  }

  private textDelta(index: number, delta: string): string {
    const item = this.items[index]
    if (item?.type !== 'text') return ''
    this.items[index] = { type: 'text', text: item.text + delta }
    this.deltaPositions[index] ??= positionJson(this.textPosition(index))
    return this.deltaFrame('response.output_text.delta', this.deltaPositions[index], delta, ',"logprobs":[]')
  }

  private textEnd(index: number): string {
    const item = this.items[index]
    if (item?.type !== 'text') return ''
    this.ended.add(index)
    return (
      this.frame('response.output_text.done', withFields(this.textPosition(index), { text: item.text, logprobs: [] })) +
      this.frame(
        'response.content_part.done',
        withFields(this.textPosition(index), { part: outputTextPart(item.text) }),
      ) +
      this.frame('response.output_item.done', {
        output_index: index,
        item: messageItem(item.text, index, this.id(), 'completed'),
      })
    )
  }

  private reasoningDelta(index: number, delta: string): string {
    const item = this.items[index]
    if (item?.type !== 'reasoning') return ''
    this.items[index] = { ...item, text: item.text + delta }
    const opening =
      item.text === ''
        ? this.frame(
            'response.reasoning_summary_part.added',
            withFields(this.reasoningPosition(index), { part: summaryPart('') }),
          )
        : ''
    this.deltaPositions[index] ??= positionJson(this.reasoningPosition(index))
    return opening + this.deltaFrame('response.reasoning_summary_text.delta', this.deltaPositions[index], delta, '')
  }

  private reasoningEnd(
    index: number,
    proof: { signature?: string; encrypted_content?: string; redacted?: boolean },
  ): string {
    const item = this.items[index]
    if (item?.type !== 'reasoning') return ''
    const ended = { ...item, ...proof }
    this.items[index] = ended
    this.ended.add(index)
    const position = this.reasoningPosition(index)
    const summary =
      ended.text === ''
        ? ''
        : this.frame('response.reasoning_summary_text.done', withFields(position, { text: ended.text })) +
          this.frame('response.reasoning_summary_part.done', withFields(position, { part: summaryPart(ended.text) }))
    return (
      summary +
      this.frame('response.output_item.done', { output_index: index, item: encodeOutputItem(ended, index, this.id()) })
    )
  }

  private toolCallDelta(index: number, delta: string): string {
    const item = this.items[index]
    if (item?.type !== 'tool-call') return ''
    this.items[index] = { ...item, arguments: item.arguments + delta }
    this.deltaPositions[index] ??= positionJson({ item_id: outputItemId('fc', this.id(), index), output_index: index })
    return this.deltaFrame('response.function_call_arguments.delta', this.deltaPositions[index], delta, '')
  }

  private toolCallEnd(index: number, signature: string | undefined): string {
    const item = this.items[index]
    if (item?.type !== 'tool-call') return ''
    const ended = signature === undefined ? item : { ...item, signature }
    this.items[index] = ended
    this.ended.add(index)
    return (
      this.frame('response.function_call_arguments.done', {
        item_id: outputItemId('fc', this.id(), index),
        output_index: index,
        name: ended.name,
        arguments: ended.arguments,
      }) +
      this.frame('response.output_item.done', { output_index: index, item: encodeOutputItem(ended, index, this.id()) })
    )
  }

  /** The output items of the terminal response. */
  protected finalOutput(): readonly Record<string, unknown>[] {
    return this.encodedItems()
  }

  private encodedItems(): Record<string, unknown>[] {
    const last = Math.max(this.items.length - 1, ...this.gatewayItems.keys())
    const output: Record<string, unknown>[] = []
    for (let index = 0; index <= last; index += 1) {
      const gateway = this.gatewayItems.get(index)
      if (gateway !== undefined) output.push({ ...gateway })
      const item = this.items[index]
      if (item === undefined) continue
      const encoded = encodeOutputItem(item, index, this.id())
      output.push(
        this.ended.has(index) || encoded.status === undefined ? encoded : { ...encoded, status: 'incomplete' },
      )
    }
    return output
  }

  private response(state: ResponseState): Record<string, unknown> {
    return buildResponseObject(state, this.context)
  }

  private textPosition(index: number): Record<string, unknown> {
    return { item_id: outputItemId('msg', this.id(), index), output_index: index, content_index: 0 }
  }

  private reasoningPosition(index: number): Record<string, unknown> {
    const item = this.items[index]
    const id =
      item?.type === 'reasoning' && item.origin === 'openai-responses' && item.id !== undefined
        ? item.id
        : outputItemId('rs', this.id(), index)
    return { item_id: id, output_index: index, summary_index: 0 }
  }

  private id(): string {
    return this.context.generationId
  }

  private frame(type: string, fields: Record<string, unknown>): string {
    return namedSseFrame(type, { type, sequence_number: this.sequence++, ...fields })
  }

  /** The same bytes as `frame(type, { response })`, with the response serialized once for both opening events. */
  private responseFrame(type: string, response: string): string {
    return `event: ${type}\ndata: {"type":"${type}","sequence_number":${this.sequence++},"response":${response}}\n\n`
  }

  /** The same bytes as `frame(type, {...position, delta, ...tail})`, without building the object: deltas are most of a stream. */
  private deltaFrame(type: string, position: string, delta: string, tail: string): string {
    return `event: ${type}\ndata: {"type":"${type}","sequence_number":${this.sequence++},${position}"delta":${JSON.stringify(delta)}${tail}}\n\n`
  }
}

/** `{"a":1,"b":2}` -> `"a":1,"b":2,`: the fields to splice into a delta frame. */
function positionJson(position: Record<string, unknown>): string {
  const json = JSON.stringify(position)
  return json.slice(1, -1) + ','
}
