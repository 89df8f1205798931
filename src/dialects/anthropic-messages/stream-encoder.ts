// Canonical stream events -> Anthropic's event stream: message_start, per block content_block_start,
// content_block_delta (text_delta, thinking_delta, signature_delta, input_json_delta) and
// content_block_stop, then message_delta (stop_reason + usage) and message_stop. Frames are
// `event: <name>\ndata: <json>\n\n`; there is no [DONE]. A failure is `event: error`.
//
// A reasoning block opens at its first delta or at its end, since only the end tells a redacted block
// (`redacted_thinking`) from a thinking one. Blocks are numbered in the order they open.

import type { ErrorKind } from '../../domain/errors.ts'
import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import type { ReasoningItem } from '../../domain/inference/message.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { EncodeContext, StreamEncoder, StreamFinish } from '../dialect.ts'
import { namedSseFrame } from '../sse-frames.ts'
import { anthropicErrorBody } from './encode-error.ts'
import { anthropicUsage, isRedactedThinking, stopReason, thinkingSignature } from './message-object.ts'

type ReasoningDraft = Omit<ReasoningItem, 'type'>

export function createMessagesStreamEncoder(context: EncodeContext): StreamEncoder {
  return new MessagesStreamEncoder(context)
}

class MessagesStreamEncoder implements StreamEncoder {
  private closed = false
  private opened = 0
  /** Canonical output index -> Anthropic block index, once the block is open. */
  private readonly blocks = new Map<number, number>()
  private readonly reasoning = new Map<number, ReasoningDraft>()
  private finish_reason: FinishReason = 'stop'
  private native_finish_reason: string | undefined

  constructor(private readonly context: EncodeContext) {}

  /**
   * Anthropic's format has no debug event and its SDK's stream helper refuses any event before
   * `message_start` except `ping`, which every client skips: the echo rides on a first `ping`.
   */
  debug(upstreamBody: Readonly<Record<string, unknown>>): string {
    return namedSseFrame('ping', { type: 'ping', debug: { echo_upstream_body: upstreamBody } })
  }

  start(): string {
    const message = {
      id: this.context.generationId,
      type: 'message',
      role: 'assistant',
      model: this.context.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
    }
    return this.frame('message_start', { message })
  }

  push(event: StreamEvent): string {
    if (this.closed) return ''
    switch (event.type) {
      case 'text-start':
        return this.open(event.index, { type: 'text', text: '' })
      case 'text-delta':
        return this.textDelta(event.index, event.delta)
      case 'reasoning-start':
        this.reasoning.set(event.index, {
          text: '',
          origin: event.origin,
          ...(event.id === undefined ? {} : { id: event.id }),
        })
        return ''
      case 'reasoning-delta':
        return this.reasoningDelta(event.index, event.delta)
      case 'reasoning-end':
        return this.reasoningEnd(event)
      case 'tool-call-start':
        return this.open(event.index, { type: 'tool_use', id: event.id, name: event.name, input: {} })
      case 'tool-call-delta':
        return this.delta(event.index, { type: 'input_json_delta', partial_json: event.delta })
      case 'text-end':
      case 'tool-call-end':
        return this.stop(event.index)
      case 'message-end':
        this.finish_reason = event.finish_reason
        this.native_finish_reason = event.native_finish_reason
        return ''
      case 'stream-error':
        return this.fail(event.kind, event.message)
      case 'native-frame':
      case 'message-start':
      case 'usage-report':
        return ''
    }
  }

  finish(final: StreamFinish): string {
    if (this.closed) return ''
    this.closed = true
    const delta = { stop_reason: stopReason(this.finish_reason, this.native_finish_reason), stop_sequence: null }
    return this.frame('message_delta', { delta, usage: anthropicUsage(final.usage) }) + this.frame('message_stop', {})
  }

  fail(kind: ErrorKind, message: string): string {
    if (this.closed) return ''
    this.closed = true
    return namedSseFrame('error', anthropicErrorBody(kind, message))
  }

  private reasoningDelta(index: number, delta: string): string {
    const draft = this.reasoning.get(index)
    if (draft === undefined) return ''
    this.reasoning.set(index, { ...draft, text: draft.text + delta })
    const opening = this.blocks.has(index) ? '' : this.open(index, { type: 'thinking', thinking: '', signature: '' })
    return opening + this.delta(index, { type: 'thinking_delta', thinking: delta })
  }

  private reasoningEnd(event: Extract<StreamEvent, { type: 'reasoning-end' }>): string {
    const draft = this.reasoning.get(event.index)
    if (draft === undefined) return ''
    const { type: _type, index, ...proof } = event
    const ended = { ...draft, ...proof }
    if (isRedactedThinking(ended))
      return this.open(index, { type: 'redacted_thinking', data: ended.encrypted_content ?? '' }) + this.stop(index)
    const opening = this.blocks.has(index) ? '' : this.open(index, { type: 'thinking', thinking: '', signature: '' })
    const signature = thinkingSignature(ended)
    return (
      opening + (signature === '' ? '' : this.delta(index, { type: 'signature_delta', signature })) + this.stop(index)
    )
  }

  private open(index: number, block: Record<string, unknown>): string {
    const position = this.opened++
    this.blocks.set(index, position)
    return this.frame('content_block_start', { index: position, content_block: block })
  }

  /** The same bytes as `delta(index, {type: 'text_delta', text})`, without building the event: text deltas are most of a stream. */
  private textDelta(index: number, text: string): string {
    const position = this.blocks.get(index)
    return position === undefined
      ? ''
      : `event: content_block_delta\ndata: {"type":"content_block_delta","index":${position},"delta":{"type":"text_delta","text":${JSON.stringify(text)}}}\n\n`
  }

  private delta(index: number, delta: Record<string, unknown>): string {
    const position = this.blocks.get(index)
    return position === undefined ? '' : this.frame('content_block_delta', { index: position, delta })
  }

  private stop(index: number): string {
    const position = this.blocks.get(index)
    return position === undefined ? '' : this.frame('content_block_stop', { index: position })
  }

  private frame(type: string, fields: Record<string, unknown>): string {
    return namedSseFrame(type, { type, ...fields })
  }
}
