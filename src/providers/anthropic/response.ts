// Messages API JSON -> canonical result.

import { GatewayError } from '../../domain/errors.ts'
import type { CanonicalResult, OutputItem } from '../../domain/inference/result.ts'
import { makeUsage } from '../../domain/inference/usage.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import { mapAnthropicStopReason } from './finish-reason.ts'
import type { AnthropicContentBlock, AnthropicResponse, AnthropicUsage } from './wire.ts'

export function parseAnthropicResponse(body: unknown): CanonicalResult {
  const message = body as Partial<AnthropicResponse> | null
  if (typeof message?.id !== 'string' || !Array.isArray(message.content)) {
    throw new GatewayError('upstream_error', 'Anthropic returned a message without content')
  }
  const output = message.content.flatMap(toOutputItem)
  const native = message.stop_reason ?? undefined
  const result: CanonicalResult = {
    id: message.id,
    model: message.model ?? '',
    output,
    finish_reason: mapAnthropicStopReason(native),
    usage: toUsage(message.usage),
  }
  return native === undefined ? result : { ...result, native_finish_reason: native }
}

function toOutputItem(block: AnthropicContentBlock): OutputItem[] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }]
    case 'thinking':
      return [{ type: 'reasoning', text: block.thinking, signature: block.signature, origin: 'anthropic' }]
    case 'redacted_thinking':
      return [{ type: 'reasoning', text: '', encrypted_content: block.data, redacted: true, origin: 'anthropic' }]
    case 'tool_use':
      return [{ type: 'tool-call', id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) }]
    default:
      return []
  }
}

/** Anthropic's input_tokens leave out cache reads and writes; the canonical count includes them. */
export function toUsage(usage: AnthropicUsage | undefined): Usage {
  const cacheRead = usage?.cache_read_input_tokens ?? 0
  const cacheWrite = usage?.cache_creation_input_tokens ?? 0
  return makeUsage({
    input_tokens: (usage?.input_tokens ?? 0) + cacheRead + cacheWrite,
    output_tokens: usage?.output_tokens ?? 0,
    cached_input_tokens: cacheRead,
    cache_write_tokens: cacheWrite,
  })
}
