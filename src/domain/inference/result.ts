// The canonical result of a non-streaming call; a stream's events fold into the same shape.

import type { FinishReason } from './finish-reason.ts'
import type { ReasoningItem, ToolCall } from './message.ts'
import type { Usage } from './usage.ts'

export interface TextOutput {
  readonly type: 'text'
  readonly text: string
}

export interface ToolCallOutput extends ToolCall {
  readonly type: 'tool-call'
}

export type OutputItem = TextOutput | ReasoningItem | ToolCallOutput

/** One generated token's log-probability and the most likely alternatives at its position. */
export interface TokenLogprob {
  readonly token: string
  readonly logprob: number
  readonly top_logprobs: readonly { readonly token: string; readonly logprob: number }[]
}

export interface CanonicalResult {
  /** The upstream's response id (`chatcmpl-...`, `msg_...`, `resp_...`, Gemini `responseId`). */
  readonly id: string
  /** The model the upstream says answered. */
  readonly model: string
  /** Output items in the order the upstream produced them. */
  readonly output: readonly OutputItem[]
  readonly finish_reason: FinishReason
  /** The upstream's own finish reason, for logs and pass-through. */
  readonly native_finish_reason?: string
  readonly usage: Usage
  /** Per output token, when the call asked for `logprobs` and the upstream reports them. */
  readonly logprobs?: readonly TokenLogprob[]
}
