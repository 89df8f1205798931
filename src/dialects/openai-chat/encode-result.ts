// Canonical result -> a `chat.completion` body with OpenRouter's `reasoning`, `reasoning_details`,
// `native_finish_reason`, usage cost and `provider`.

import type { CanonicalResult } from '../../domain/inference/result.ts'
import type { EncodeContext } from '../dialect.ts'
import { chatFinishReasons, chatHeader, chatUsage } from './chat-completion.ts'
import { encodeReasoningDetails } from './reasoning-details.ts'

export function encodeChatResult(result: CanonicalResult, context: EncodeContext): Record<string, unknown> {
  const text = result.output.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('')
  const reasoningItems = result.output.flatMap((item) => (item.type === 'reasoning' ? [item] : []))
  const toolCalls = result.output.flatMap((item) =>
    item.type === 'tool-call'
      ? [{ id: item.id, type: 'function', function: { name: item.name, arguments: item.arguments } }]
      : [],
  )
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    refusal: null,
    reasoning: reasoningItems.length === 0 ? null : reasoningItems.map((item) => item.text).join(''),
  }
  if (reasoningItems.length > 0)
    message.reasoning_details = reasoningItems.flatMap((item, index) => encodeReasoningDetails(item, index))
  if (toolCalls.length > 0) message.tool_calls = toolCalls
  const body: Record<string, unknown> = Object.assign(chatHeader('chat.completion', context), {
    choices: [
      {
        index: 0,
        message,
        logprobs: encodeLogprobs(result),
        finish_reason: chatFinishReasons[result.finish_reason],
        native_finish_reason: result.native_finish_reason ?? null,
      },
    ],
    usage: chatUsage(result.usage, context.costUsd, context.isByok),
  })
  if (context.metadata !== undefined) body.openrouter_metadata = context.metadata
  return body
}

/** Chat Completions `choices[].logprobs`: null unless the upstream reported them. */
function encodeLogprobs(result: CanonicalResult): Record<string, unknown> | null {
  if (result.logprobs === undefined) return null
  return {
    content: result.logprobs.map((entry) => ({
      token: entry.token,
      logprob: entry.logprob,
      bytes: null,
      top_logprobs: entry.top_logprobs.map((top) => ({ ...top, bytes: null })),
    })),
    refusal: null,
  }
}
