// Chat Completions JSON -> canonical result.

import { GatewayError } from '../../domain/errors.ts'
import type { CanonicalResult, OutputItem, TokenLogprob } from '../../domain/inference/result.ts'
import { makeUsage } from '../../domain/inference/usage.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import { mapChatFinishReason } from './finish-reason.ts'
import type { ChatCompletion, ChatTokenLogprob, ChatUsage } from './wire.ts'

export function parseChatResponse(body: unknown): CanonicalResult {
  const completion = body as Partial<ChatCompletion> | null
  const choice = completion?.choices?.[0]
  if (typeof completion?.id !== 'string' || choice === undefined) {
    throw new GatewayError('upstream_error', 'The upstream returned a chat completion without choices')
  }
  const message = choice.message
  const output: OutputItem[] = []
  const reasoning = message.reasoning_content ?? message.reasoning
  if (typeof reasoning === 'string' && reasoning !== '')
    output.push({ type: 'reasoning', text: reasoning, origin: 'openai-chat' })
  if (typeof message.content === 'string' && message.content !== '')
    output.push({ type: 'text', text: message.content })
  for (const call of message.tool_calls ?? []) {
    output.push({ type: 'tool-call', id: call.id, name: call.function.name, arguments: call.function.arguments })
  }
  const native = choice.finish_reason ?? undefined
  const logprobs = toLogprobs(choice.logprobs?.content)
  return dropUndefined({
    id: completion.id,
    model: completion.model ?? '',
    output,
    finish_reason: mapChatFinishReason(native),
    usage: toUsage(completion.usage),
    native_finish_reason: native,
    logprobs,
  }) as CanonicalResult
}

function toLogprobs(content: readonly ChatTokenLogprob[] | null | undefined): TokenLogprob[] | undefined {
  if (!Array.isArray(content)) return undefined
  return content
    .filter((entry) => typeof entry?.token === 'string' && typeof entry.logprob === 'number')
    .map((entry) => ({
      token: entry.token,
      logprob: entry.logprob,
      top_logprobs: (entry.top_logprobs ?? [])
        .filter(
          (top: { token: string; logprob: number }) =>
            typeof top?.token === 'string' && typeof top.logprob === 'number',
        )
        .map((top: { token: string; logprob: number }) => ({ token: top.token, logprob: top.logprob })),
    }))
}

export function toUsage(usage: ChatUsage | null | undefined): Usage {
  return makeUsage({
    input_tokens: usage?.prompt_tokens,
    output_tokens: usage?.completion_tokens,
    cached_input_tokens: usage?.prompt_tokens_details?.cached_tokens ?? undefined,
    reasoning_tokens: usage?.completion_tokens_details?.reasoning_tokens ?? undefined,
    total_tokens: usage?.total_tokens,
  })
}
