// Canonical result -> Anthropic's `message` object. The id is the generation id.

import type { CanonicalResult, OutputItem } from '../../domain/inference/result.ts'
import type { EncodeContext } from '../dialect.ts'
import { anthropicUsage, isRedactedThinking, stopReason, thinkingSignature, toolInput } from './message-object.ts'

export function encodeMessagesResult(result: CanonicalResult, context: EncodeContext): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: context.generationId,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content: result.output.map(toBlock),
    stop_reason: stopReason(result.finish_reason, result.native_finish_reason),
    stop_sequence: null,
    usage: anthropicUsage(result.usage),
    provider: context.provider,
  }
  if (context.metadata !== undefined) body.openrouter_metadata = context.metadata
  return body
}

function toBlock(item: OutputItem): Record<string, unknown> {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: item.text }
    case 'reasoning':
      if (isRedactedThinking(item)) return { type: 'redacted_thinking', data: item.encrypted_content ?? '' }
      return { type: 'thinking', thinking: item.text, signature: thinkingSignature(item) }
    case 'tool-call':
      return { type: 'tool_use', id: item.id, name: item.name, input: toolInput(item.arguments) }
  }
}
