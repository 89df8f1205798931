// streamGenerateContent?alt=sse -> canonical stream events. Every frame is a whole GenerateContentResponse
// holding the next parts; text continues across frames until another kind of part arrives; function
// calls come whole. The frame with a finishReason carries the final usage. No [DONE]: the body just ends.

import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { StreamParser } from '../provider-adapter.ts'
import type { SseEvent } from '../sse-framing.ts'
import { parseFrameJson, truncatedStreamError } from '../stream-json.ts'
import { geminiStreamError } from './errors.ts'
import { mapGeminiFinishReason } from './finish-reason.ts'
import { toolCallId, toUsage } from './response.ts'
import type { GeminiErrorBody, GeminiPart, GeminiResponse } from './wire.ts'

export class GeminiStreamParser implements StreamParser {
  private started = false
  private closed = false
  private nextIndex = 0
  private hasToolCalls = false
  private current: { kind: 'text' | 'reasoning'; index: number; signature?: string } | undefined

  push(event: SseEvent): StreamEvent[] {
    if (this.closed || event.data.trim() === '[DONE]') return []
    const frame = parseFrameJson(event.data)
    if (!frame.ok) return this.fail(frame.error)
    const error = (frame.value as GeminiErrorBody).error
    if (error !== undefined) return this.fail(geminiStreamError(error))
    return this.readChunk(frame.value as GeminiResponse)
  }

  end(): StreamEvent[] {
    return this.closed ? [] : this.fail(truncatedStreamError)
  }

  private readChunk(chunk: GeminiResponse): StreamEvent[] {
    const out: StreamEvent[] = []
    if (!this.started) {
      this.started = true
      out.push({ type: 'message-start', id: chunk.responseId ?? '', model: chunk.modelVersion ?? '' })
    }
    const candidate = chunk.candidates?.[0]
    for (const part of candidate?.content?.parts ?? []) this.readPart(part, chunk.responseId ?? '', out)
    const blocked = candidate === undefined ? chunk.promptFeedback?.blockReason : undefined
    const native = candidate?.finishReason ?? blocked
    if (native === undefined) return out
    this.closeCurrent(out)
    this.closed = true
    const finish = blocked === undefined ? mapGeminiFinishReason(native, this.hasToolCalls) : 'content_filter'
    out.push(
      { type: 'usage-report', usage: toUsage(chunk.usageMetadata) },
      { type: 'message-end', finish_reason: finish, native_finish_reason: native },
    )
    return out
  }

  private readPart(part: GeminiPart, responseId: string, out: StreamEvent[]): void {
    if (part.functionCall !== undefined) {
      this.closeCurrent(out)
      this.hasToolCalls = true
      const index = this.nextIndex++
      const call = part.functionCall
      out.push({ type: 'tool-call-start', index, id: call.id ?? toolCallId(responseId, index), name: call.name })
      out.push({ type: 'tool-call-delta', index, delta: JSON.stringify(call.args ?? {}) })
      out.push(
        part.thoughtSignature === undefined
          ? { type: 'tool-call-end', index }
          : { type: 'tool-call-end', index, signature: part.thoughtSignature },
      )
      return
    }
    if (part.text === undefined) return
    const kind = part.thought === true ? 'reasoning' : 'text'
    if (this.current?.kind !== kind) this.open(kind, out)
    const current = this.current
    if (current === undefined) return
    if (kind === 'reasoning' && part.thoughtSignature !== undefined) current.signature = part.thoughtSignature
    if (part.text !== '')
      out.push({ type: kind === 'text' ? 'text-delta' : 'reasoning-delta', index: current.index, delta: part.text })
  }

  private open(kind: 'text' | 'reasoning', out: StreamEvent[]): void {
    this.closeCurrent(out)
    const index = this.nextIndex++
    this.current = { kind, index }
    out.push(kind === 'text' ? { type: 'text-start', index } : { type: 'reasoning-start', index, origin: 'gemini' })
  }

  private closeCurrent(out: StreamEvent[]): void {
    const current = this.current
    if (current === undefined) return
    this.current = undefined
    if (current.kind === 'text') out.push({ type: 'text-end', index: current.index })
    else
      out.push(
        current.signature === undefined
          ? { type: 'reasoning-end', index: current.index }
          : { type: 'reasoning-end', index: current.index, signature: current.signature },
      )
  }

  private fail(error: StreamEvent): StreamEvent[] {
    this.closed = true
    return [error]
  }
}
