// Messages API SSE -> canonical stream events. Content blocks map one to one; thinking signatures come
// as a `signature_delta` before the block stops; usage is split between message_start (input and cache
// counts) and message_delta (cumulative output count).

import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { StreamParser } from '../provider-adapter.ts'
import type { SseEvent } from '../sse-framing.ts'
import { parseFrameJson, truncatedStreamError } from '../stream-json.ts'
import { anthropicStreamError } from './errors.ts'
import { mapAnthropicStopReason } from './finish-reason.ts'
import { readPlainDelta } from './plain-text-frame.ts'
import { toUsage } from './response.ts'
import type { AnthropicContentBlock, AnthropicStreamDelta, AnthropicStreamEvent, AnthropicUsage } from './wire.ts'

interface OpenBlock {
  readonly kind: 'text' | 'reasoning' | 'tool-call' | 'redacted'
  readonly index: number
  signature?: string
  data?: string
}

/** Block types with a canonical counterpart; others (server tools, ...) are skipped. */
const blockKinds = {
  text: 'text',
  thinking: 'reasoning',
  redacted_thinking: 'redacted',
  tool_use: 'tool-call',
} as const

export class AnthropicStreamParser implements StreamParser {
  private closed = false
  private nextIndex = 0
  private readonly blocks = new Map<number, OpenBlock>()
  private usage: AnthropicUsage = {}
  private finish: { reason: FinishReason; native?: string } | undefined

  push(event: SseEvent): StreamEvent[] {
    // Anthropic sends no [DONE]; proxies in front of it sometimes add one.
    if (this.closed || event.data.trim() === '[DONE]') return []
    const plain = readPlainDelta(event.data)
    if (plain !== undefined) return this.readDelta(plain.index, plain.delta)
    const frame = parseFrameJson(event.data)
    if (!frame.ok) return this.fail(frame.error)
    return this.read(frame.value as AnthropicStreamEvent)
  }

  end(): StreamEvent[] {
    return this.closed ? [] : this.fail(truncatedStreamError)
  }

  private read(event: AnthropicStreamEvent): StreamEvent[] {
    switch (event.type) {
      case 'message_start':
        this.usage = event.message.usage ?? {}
        return [{ type: 'message-start', id: event.message.id, model: event.message.model }]
      case 'content_block_start':
        return this.startBlock(event.index, event.content_block)
      case 'content_block_delta':
        return this.readDelta(event.index, event.delta)
      case 'content_block_stop':
        return this.stopBlock(event.index)
      case 'message_delta': {
        const reported = Object.entries(event.usage ?? {}).filter(([, value]) => value != null)
        this.usage = { ...this.usage, ...Object.fromEntries(reported) }
        const native = event.delta.stop_reason ?? undefined
        this.finish = { reason: mapAnthropicStopReason(native), ...(native === undefined ? {} : { native }) }
        return [{ type: 'usage-report', usage: toUsage(this.usage) }]
      }
      case 'message_stop': {
        if (this.finish === undefined) return this.fail(truncatedStreamError)
        this.closed = true
        return [
          {
            type: 'message-end',
            finish_reason: this.finish.reason,
            ...(this.finish.native === undefined ? {} : { native_finish_reason: this.finish.native }),
          },
        ]
      }
      case 'error':
        return this.fail(anthropicStreamError(event))
      default:
        return []
    }
  }

  private startBlock(upstreamIndex: number, block: AnthropicContentBlock | { type: string }): StreamEvent[] {
    const typed = block as AnthropicContentBlock
    if (!Object.hasOwn(blockKinds, typed.type)) return []
    const kind = blockKinds[typed.type as keyof typeof blockKinds]
    const index = this.nextIndex++
    const open: OpenBlock = { kind, index }
    this.blocks.set(upstreamIndex, open)
    if (typed.type === 'tool_use') return [{ type: 'tool-call-start', index, id: typed.id, name: typed.name }]
    if (typed.type === 'redacted_thinking') open.data = typed.data
    if (kind === 'text')
      return typed.type === 'text' && typed.text !== ''
        ? [
            { type: 'text-start', index },
            { type: 'text-delta', index, delta: typed.text },
          ]
        : [{ type: 'text-start', index }]
    return [{ type: 'reasoning-start', index, origin: 'anthropic' }]
  }

  private readDelta(upstreamIndex: number, delta: AnthropicStreamDelta): StreamEvent[] {
    const block = this.blocks.get(upstreamIndex)
    if (block === undefined) return []
    switch (delta.type) {
      case 'text_delta':
        return delta.text === '' ? [] : [{ type: 'text-delta', index: block.index, delta: delta.text }]
      case 'thinking_delta':
        return delta.thinking === '' ? [] : [{ type: 'reasoning-delta', index: block.index, delta: delta.thinking }]
      case 'input_json_delta':
        return delta.partial_json === ''
          ? []
          : [{ type: 'tool-call-delta', index: block.index, delta: delta.partial_json }]
      case 'signature_delta':
        block.signature = (block.signature ?? '') + delta.signature
        return []
      default:
        return []
    }
  }

  private stopBlock(upstreamIndex: number): StreamEvent[] {
    const block = this.blocks.get(upstreamIndex)
    if (block === undefined) return []
    this.blocks.delete(upstreamIndex)
    const index = block.index
    switch (block.kind) {
      case 'text':
        return [{ type: 'text-end', index }]
      case 'tool-call':
        return [{ type: 'tool-call-end', index }]
      case 'redacted':
        return [{ type: 'reasoning-end', index, encrypted_content: block.data ?? '', redacted: true }]
      case 'reasoning':
        return [
          block.signature === undefined
            ? { type: 'reasoning-end', index }
            : { type: 'reasoning-end', index, signature: block.signature },
        ]
    }
  }

  private fail(error: StreamEvent): StreamEvent[] {
    this.closed = true
    return [error]
  }
}
