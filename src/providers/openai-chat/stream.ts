// Chat Completions SSE -> canonical stream events. Text and reasoning arrive as deltas of one choice;
// tool-call argument fragments are keyed by `index`; usage comes in a final chunk with no choices (with
// `stream_options.include_usage`); `data: [DONE]` closes the stream.

import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { StreamParser } from '../provider-adapter.ts'
import type { SseEvent } from '../sse-framing.ts'
import { parseFrameJson, truncatedStreamError } from '../stream-json.ts'
import { chatStreamError } from './errors.ts'
import { mapChatFinishReason } from './finish-reason.ts'
import { PlainTextFrameReader } from './plain-text-frame.ts'
import { toUsage } from './response.ts'
import type { ChatCompletionChunk, ChatErrorBody, ChatToolCallDelta } from './wire.ts'

type Delta = ChatCompletionChunk['choices'][number]['delta']

export class ChatStreamParser implements StreamParser {
  private started = false
  private closed = false
  private nextIndex = 0
  /** The open text or reasoning block. */
  private current: { kind: 'text' | 'reasoning'; index: number } | undefined
  /** Open tool calls: upstream tool_calls[].index -> output index. */
  private readonly toolCalls = new Map<number, number>()
  private finish: { reason: FinishReason; native: string } | undefined
  private readonly plainFrames = new PlainTextFrameReader()

  push(event: SseEvent): StreamEvent[] {
    if (this.closed) return []
    if (event.data.trim() === '[DONE]') return this.finishMessage()
    if (this.started) {
      const text = this.plainFrames.read(event.data)
      if (text !== undefined) return this.readText(text)
    }
    const frame = parseFrameJson(event.data)
    if (!frame.ok) return this.fail(frame.error)
    const error = (frame.value as ChatErrorBody).error
    if (error !== undefined && error !== null) return this.fail(chatStreamError(error))
    return this.readChunk(frame.value as ChatCompletionChunk)
  }

  end(): StreamEvent[] {
    if (this.closed) return []
    return this.finish === undefined ? this.fail(truncatedStreamError) : this.finishMessage()
  }

  private readChunk(chunk: ChatCompletionChunk): StreamEvent[] {
    const out: StreamEvent[] = []
    if (!this.started) {
      this.started = true
      out.push({ type: 'message-start', id: chunk.id, model: chunk.model })
    }
    const choice = chunk.choices?.[0]
    if (choice !== undefined) {
      if (choice.delta !== undefined) this.readDelta(choice.delta, out)
      if (choice.finish_reason != null) {
        this.closeAll(out)
        this.finish = { reason: mapChatFinishReason(choice.finish_reason), native: choice.finish_reason }
      }
    }
    if (chunk.usage != null) out.push({ type: 'usage-report', usage: toUsage(chunk.usage) })
    return out
  }

  /** A frame that held only text (`readPlainTextFrame`): what `readChunk` makes of it, without parsing it. */
  private readText(text: string): StreamEvent[] {
    const out: StreamEvent[] = []
    this.pushText(text, out)
    return out
  }

  private pushText(text: string, out: StreamEvent[]): void {
    if (text !== '') out.push({ type: 'text-delta', index: this.open('text', out), delta: text })
  }

  private readDelta(delta: Delta, out: StreamEvent[]): void {
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning !== '')
      out.push({ type: 'reasoning-delta', index: this.open('reasoning', out), delta: reasoning })
    if (typeof delta.content === 'string') this.pushText(delta.content, out)
    for (const call of delta.tool_calls ?? []) this.readToolCall(call, out)
  }

  private readToolCall(call: ChatToolCallDelta, out: StreamEvent[]): void {
    let index = this.toolCalls.get(call.index)
    if (index === undefined) {
      this.closeCurrent(out)
      index = this.nextIndex++
      this.toolCalls.set(call.index, index)
      out.push({ type: 'tool-call-start', index, id: call.id ?? `call_${call.index}`, name: call.function?.name ?? '' })
    }
    const fragment = call.function?.arguments
    if (fragment !== undefined && fragment !== '') out.push({ type: 'tool-call-delta', index, delta: fragment })
  }

  /** Returns the index of the open block of this kind, opening it (and closing another) if needed. */
  private open(kind: 'text' | 'reasoning', out: StreamEvent[]): number {
    if (this.current?.kind === kind) return this.current.index
    this.closeCurrent(out)
    const index = this.nextIndex++
    this.current = { kind, index }
    out.push(
      kind === 'text' ? { type: 'text-start', index } : { type: 'reasoning-start', index, origin: 'openai-chat' },
    )
    return index
  }

  private closeCurrent(out: StreamEvent[]): void {
    if (this.current === undefined) return
    const { kind, index } = this.current
    out.push(kind === 'text' ? { type: 'text-end', index } : { type: 'reasoning-end', index })
    this.current = undefined
  }

  private closeAll(out: StreamEvent[]): void {
    this.closeCurrent(out)
    for (const index of this.toolCalls.values()) out.push({ type: 'tool-call-end', index })
    this.toolCalls.clear()
  }

  private finishMessage(): StreamEvent[] {
    if (this.finish === undefined) return this.fail(truncatedStreamError)
    this.closed = true
    return [{ type: 'message-end', finish_reason: this.finish.reason, native_finish_reason: this.finish.native }]
  }

  private fail(error: StreamEvent): StreamEvent[] {
    this.closed = true
    return [error]
  }
}
