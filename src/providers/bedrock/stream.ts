// ConverseStream frames (AWS event-stream, `:event-type` per frame) -> canonical stream events. Tool
// blocks open with contentBlockStart; text and reasoning blocks open with their first delta. Reasoning
// signatures arrive as a delta before contentBlockStop. messageStop carries the stop reason and the
// closing `metadata` frame the usage; an exception frame ends the stream with its error.
import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { StreamParser, UpstreamFrame } from '../provider-adapter.ts'
import { parseFrameJson, truncatedStreamError } from '../stream-json.ts'
import { bedrockStreamError } from './errors.ts'
import { mapConverseStopReason } from './finish-reason.ts'
import { converseResultId, toUsage } from './response.ts'
import type { ConverseStreamPayload } from './wire.ts'

interface OpenBlock {
  readonly kind: 'text' | 'reasoning' | 'tool-call'
  readonly index: number
  signature?: string
  redacted?: string
}

export class ConverseStreamParser implements StreamParser {
  private closed = false
  private nextIndex = 0
  private readonly blocks = new Map<number, OpenBlock>()
  private finish: { reason: FinishReason; native?: string } | undefined

  push(frame: UpstreamFrame): StreamEvent[] {
    if (this.closed) return []
    if (frame.exception === true) return this.fail(bedrockStreamError(frame.event ?? 'exception', frame.data))
    const parsed = parseFrameJson(frame.data)
    if (!parsed.ok) return this.fail(parsed.error)
    const payload = parsed.value as ConverseStreamPayload
    switch (frame.event) {
      case 'messageStart':
        return [{ type: 'message-start', id: converseResultId, model: '' }]
      case 'contentBlockStart':
        return this.start(payload)
      case 'contentBlockDelta':
        return this.delta(payload)
      case 'contentBlockStop':
        return this.stop(payload.contentBlockIndex ?? 0)
      case 'messageStop':
        this.finish = { reason: mapConverseStopReason(payload.stopReason), native: payload.stopReason }
        return []
      case 'metadata':
        return this.finishMessage([{ type: 'usage-report', usage: toUsage(payload.usage) }])
      default:
        return []
    }
  }

  end(): StreamEvent[] {
    if (this.closed) return []
    return this.finish === undefined ? this.fail(truncatedStreamError) : this.finishMessage([])
  }

  private start(payload: ConverseStreamPayload): StreamEvent[] {
    const tool = payload.start?.toolUse
    if (tool === undefined) return []
    const index = this.nextIndex++
    this.blocks.set(payload.contentBlockIndex ?? 0, { kind: 'tool-call', index })
    return [{ type: 'tool-call-start', index, id: tool.toolUseId ?? '', name: tool.name ?? '' }]
  }

  private delta(payload: ConverseStreamPayload): StreamEvent[] {
    const position = payload.contentBlockIndex ?? 0
    const delta = payload.delta ?? {}
    if (delta.toolUse !== undefined) {
      const block = this.blocks.get(position)
      return block === undefined
        ? []
        : [{ type: 'tool-call-delta', index: block.index, delta: delta.toolUse.input ?? '' }]
    }
    if (delta.text !== undefined) {
      const [block, opened] = this.open(position, 'text')
      return [...opened, { type: 'text-delta', index: block.index, delta: delta.text }]
    }
    const reasoning = delta.reasoningContent
    if (reasoning === undefined) return []
    const [block, opened] = this.open(position, 'reasoning')
    if (reasoning.signature !== undefined) block.signature = reasoning.signature
    if (reasoning.redactedContent !== undefined) block.redacted = (block.redacted ?? '') + reasoning.redactedContent
    if (reasoning.text === undefined || reasoning.text === '') return opened
    return [...opened, { type: 'reasoning-delta', index: block.index, delta: reasoning.text }]
  }

  private open(position: number, kind: 'text' | 'reasoning'): [OpenBlock, StreamEvent[]] {
    const existing = this.blocks.get(position)
    if (existing !== undefined) return [existing, []]
    const block: OpenBlock = { kind, index: this.nextIndex++ }
    this.blocks.set(position, block)
    const start: StreamEvent =
      kind === 'text'
        ? { type: 'text-start', index: block.index }
        : { type: 'reasoning-start', index: block.index, origin: 'anthropic' }
    return [block, [start]]
  }

  private stop(position: number): StreamEvent[] {
    const block = this.blocks.get(position)
    if (block === undefined) return []
    this.blocks.delete(position)
    if (block.kind === 'text') return [{ type: 'text-end', index: block.index }]
    if (block.kind === 'tool-call') return [{ type: 'tool-call-end', index: block.index }]
    if (block.redacted !== undefined)
      return [{ type: 'reasoning-end', index: block.index, encrypted_content: block.redacted, redacted: true }]
    return [
      block.signature === undefined
        ? { type: 'reasoning-end', index: block.index }
        : { type: 'reasoning-end', index: block.index, signature: block.signature },
    ]
  }

  private finishMessage(before: StreamEvent[]): StreamEvent[] {
    this.closed = true
    const finish = this.finish ?? { reason: 'other' as FinishReason }
    const events = [...[...this.blocks.keys()].flatMap((position) => this.stop(position)), ...before]
    events.push(
      finish.native === undefined
        ? { type: 'message-end', finish_reason: finish.reason }
        : { type: 'message-end', finish_reason: finish.reason, native_finish_reason: finish.native },
    )
    return events
  }

  private fail(error: StreamEvent): StreamEvent[] {
    this.closed = true
    return [error]
  }
}
