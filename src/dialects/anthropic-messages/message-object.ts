// Pieces of Anthropic's `message` object shared by the JSON body and the stream: stop reasons, usage in
// Anthropic's convention (input_tokens excludes cache reads and writes), thinking signatures.

import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import type { ReasoningItem } from '../../domain/inference/message.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import { sealReasoning } from '../reasoning-seal.ts'

export type AnthropicStopReason = 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence' | 'refusal'

export const anthropicStopReasons: Readonly<Record<FinishReason, AnthropicStopReason>> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
  error: 'end_turn',
  other: 'end_turn',
}

/** `stop_sequence` survives as the native reason; the canonical vocabulary folds it into `stop`. */
export function stopReason(finish: FinishReason, native: string | undefined): AnthropicStopReason {
  return finish === 'stop' && native === 'stop_sequence' ? 'stop_sequence' : anthropicStopReasons[finish]
}

export function anthropicUsage(usage: Usage): Record<string, number> {
  return {
    input_tokens: Math.max(0, usage.input_tokens - usage.cached_input_tokens - usage.cache_write_tokens),
    output_tokens: usage.output_tokens,
    cache_read_input_tokens: usage.cached_input_tokens,
    cache_creation_input_tokens: usage.cache_write_tokens,
  }
}

/** An Anthropic item keeps its signature; reasoning from other APIs travels sealed in the signature. */
export function thinkingSignature(item: Omit<ReasoningItem, 'type'>): string {
  if (item.origin === 'anthropic') return item.signature ?? ''
  return sealReasoning({ type: 'reasoning', ...item })
}

export function isRedactedThinking(item: Omit<ReasoningItem, 'type'>): boolean {
  return item.origin === 'anthropic' && item.redacted === true
}

/** Tool arguments as the `input` object; text that is not a JSON object becomes `{}`. */
export function toolInput(argumentsText: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(argumentsText) as unknown
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}
