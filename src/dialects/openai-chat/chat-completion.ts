// Pieces of the `chat.completion` and `chat.completion.chunk` objects shared by both paths.

import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import type { EncodeContext } from '../dialect.ts'

export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error'

export const chatFinishReasons: Readonly<Record<FinishReason, ChatFinishReason>> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  content_filter: 'content_filter',
  error: 'error',
  other: 'stop',
}

export function chatUsage(usage: Usage, costUsd: number | null, isByok: boolean): Record<string, unknown> {
  return {
    prompt_tokens: usage.input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_input_tokens, cache_write_tokens: usage.cache_write_tokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoning_tokens },
    cost: costUsd,
    is_byok: isByok,
  }
}

/**
 * The fields every chat object starts with. `system_fingerprint` is null on a completion and absent
 * from a chunk: the gateway has none, and @openrouter/sdk requires a completion's to be present
 * (string or null) but rejects a chunk whose value is not a string.
 */
export function chatHeader(
  object: 'chat.completion' | 'chat.completion.chunk',
  context: EncodeContext,
): Record<string, unknown> {
  return {
    id: context.generationId,
    object,
    created: context.createdAt,
    model: context.model,
    provider: context.provider,
    ...(object === 'chat.completion' ? { system_fingerprint: null } : {}),
  }
}
