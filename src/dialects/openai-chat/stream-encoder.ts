// Canonical stream events -> `chat.completion.chunk` frames (`data: {...}\n\n`): a role chunk first,
// content, reasoning (`reasoning` + `reasoning_details`) and tool-call deltas (`index` counts tool calls,
// the first delta carries id and name), a chunk with the finish reason, a last chunk with `usage` (and
// `openrouter_metadata`) and empty choices, then `data: [DONE]`. A mid-stream failure is a chunk with
// `error: {code, message}` and finish_reason "error", then `data: [DONE]`; the official SDK throws on it.

import { errorKinds } from '../../domain/errors.ts'
import type { ErrorKind } from '../../domain/errors.ts'
import type { ReasoningOrigin } from '../../domain/inference/provider-api.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { EncodeContext, StreamEncoder, StreamFinish } from '../dialect.ts'
import { dataSseFrame, doneSseFrame } from '../sse-frames.ts'
import { chatFinishReasons, chatHeader, chatUsage } from './chat-completion.ts'
import { encodeReasoningDetails, reasoningFormats } from './reasoning-details.ts'

export function createChatStreamEncoder(context: EncodeContext): StreamEncoder {
  return new ChatStreamEncoder(context)
}

class ChatStreamEncoder implements StreamEncoder {
  private closed = false
  private finished = false
  /** Canonical output index -> position among tool calls. */
  private readonly toolPositions = new Map<number, number>()
  /** Canonical output index -> reasoning origin and its position among reasoning items. */
  private readonly reasoning = new Map<number, { origin: ReasoningOrigin; position: number }>()

  /** `data: {"id":...,"choices":[{"index":0,"delta":`: the same for every chunk of the stream. */
  private readonly chunkPrefix: string

  constructor(private readonly context: EncodeContext) {
    const header = JSON.stringify(chatHeader('chat.completion.chunk', context))
    this.chunkPrefix = `data: ${header.slice(0, -1)},"choices":[{"index":0,"delta":`
  }

  /** A chunk with empty `choices` and `debug.echo_upstream_body`, before the role chunk. */
  debug(upstreamBody: Readonly<Record<string, unknown>>): string {
    const chunk = Object.assign(chatHeader('chat.completion.chunk', this.context), {
      choices: [],
      debug: { echo_upstream_body: upstreamBody },
    })
    return dataSseFrame(chunk)
  }

  start(): string {
    return this.chunk({ role: 'assistant', content: '' })
  }

  push(event: StreamEvent): string {
    if (this.closed) return ''
    switch (event.type) {
      case 'text-delta':
        return `${this.chunkPrefix}{"content":${JSON.stringify(event.delta)}}${openChoiceTail}`
      case 'reasoning-start':
        this.reasoning.set(event.index, { origin: event.origin, position: this.reasoning.size })
        return ''
      case 'reasoning-delta':
        return this.reasoningDelta(event.index, event.delta)
      case 'reasoning-end':
        return this.reasoningEnd(event)
      case 'tool-call-start': {
        const position = this.toolPositions.size
        this.toolPositions.set(event.index, position)
        return this.chunk({
          tool_calls: [
            { index: position, id: event.id, type: 'function', function: { name: event.name, arguments: '' } },
          ],
        })
      }
      case 'tool-call-delta':
        return this.chunk({
          tool_calls: [{ index: this.toolPositions.get(event.index) ?? 0, function: { arguments: event.delta } }],
        })
      case 'message-end':
        this.finished = true
        return this.chunk(
          {},
          {
            finish_reason: chatFinishReasons[event.finish_reason],
            native_finish_reason: event.native_finish_reason ?? null,
          },
        )
      case 'stream-error':
        return this.fail(event.kind, event.message)
      case 'native-frame':
      case 'message-start':
      case 'text-start':
      case 'text-end':
      case 'tool-call-end':
      case 'usage-report':
        return ''
    }
  }

  finish(final: StreamFinish): string {
    if (this.closed) return ''
    this.closed = true
    const closing = this.finished ? '' : this.chunk({}, { finish_reason: 'stop', native_finish_reason: null })
    const last: Record<string, unknown> = Object.assign(chatHeader('chat.completion.chunk', this.context), {
      choices: [],
      usage: chatUsage(final.usage, final.costUsd, this.context.isByok),
    })
    if (final.metadata !== undefined) last.openrouter_metadata = final.metadata
    return closing + dataSseFrame(last) + doneSseFrame
  }

  fail(kind: ErrorKind, message: string): string {
    if (this.closed) return ''
    this.closed = true
    const error = { code: errorKinds[kind].status, message }
    const body = Object.assign(chatHeader('chat.completion.chunk', this.context), {
      error,
      choices: [
        { index: 0, delta: { content: '' }, logprobs: null, finish_reason: 'error', native_finish_reason: 'error' },
      ],
    })
    return dataSseFrame(body) + doneSseFrame
  }

  private reasoningDelta(index: number, delta: string): string {
    const state = this.reasoning.get(index)
    if (state === undefined) return ''
    return this.chunk({
      reasoning: delta,
      reasoning_details: [
        { type: 'reasoning.text', text: delta, format: reasoningFormats[state.origin], index: state.position },
      ],
    })
  }

  /** The proof (signature, encrypted content) arrives at the end, as its own details chunk. */
  private reasoningEnd(event: Extract<StreamEvent, { type: 'reasoning-end' }>): string {
    const state = this.reasoning.get(event.index)
    if (state === undefined || (event.signature === undefined && event.encrypted_content === undefined)) return ''
    const { type: _type, index: _index, ...proof } = event
    const details = encodeReasoningDetails({ text: '', origin: state.origin, ...proof }, state.position).filter(
      (detail) => detail.type !== 'reasoning.summary',
    )
    return details.length === 0 ? '' : this.chunk({ reasoning_details: details })
  }

  /** The same bytes as `dataSseFrame({...header, choices: [{index: 0, delta, logprobs: null, ...finish}]})`, without building the chunk. */
  private chunk(
    delta: Record<string, unknown>,
    finish?: { finish_reason: string | null; native_finish_reason: string | null },
  ): string {
    const tail =
      finish === undefined
        ? openChoiceTail
        : `,"logprobs":null,"finish_reason":${JSON.stringify(finish.finish_reason)},"native_finish_reason":${JSON.stringify(finish.native_finish_reason)}}]}\n\n`
    return this.chunkPrefix + JSON.stringify(delta) + tail
  }
}

const openChoiceTail = ',"logprobs":null,"finish_reason":null,"native_finish_reason":null}]}\n\n'
