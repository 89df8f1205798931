// The Response object (`object: "response"`), shared by the non-streaming body and the stream's
// lifecycle events, so both paths report the same output, status and usage.

import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import type { ReasoningItem } from '../../domain/inference/message.ts'
import type { OutputItem } from '../../domain/inference/result.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import type { EncodeContext } from '../dialect.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import { sealReasoning } from '../reasoning-seal.ts'

export type ResponseStatus = 'completed' | 'incomplete' | 'failed' | 'in_progress'

interface Outcome {
  readonly status: ResponseStatus
  readonly incomplete_details: { readonly reason: string } | null
  readonly error: { readonly code: string; readonly message: string } | null
}

const outcomes: Readonly<Record<FinishReason, Outcome>> = {
  stop: { status: 'completed', incomplete_details: null, error: null },
  tool_calls: { status: 'completed', incomplete_details: null, error: null },
  other: { status: 'completed', incomplete_details: null, error: null },
  length: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, error: null },
  content_filter: { status: 'incomplete', incomplete_details: { reason: 'content_filter' }, error: null },
  error: {
    status: 'failed',
    incomplete_details: null,
    error: { code: 'server_error', message: 'The model stopped with an error' },
  },
}

export interface ResponseState {
  readonly output: readonly Record<string, unknown>[]
  readonly outcome: Outcome
  readonly usage?: Usage
  readonly costUsd?: number | null
  readonly completedAt?: number | null
  readonly metadata?: Readonly<Record<string, unknown>>
  /** Extra `usage` fields, e.g. `server_tool_use_details`. */
  readonly usageExtra?: Readonly<Record<string, unknown>>
}

/** The outcome of a finish reason, or `incomplete` with `incompleteReason` when the gateway ended the answer early. */
export function outcomeOf(finish: FinishReason, incompleteReason?: string): Outcome {
  if (incompleteReason !== undefined)
    return { status: 'incomplete', incomplete_details: { reason: incompleteReason }, error: null }
  return outcomes[finish]
}

export const inProgressOutcome: Outcome = { status: 'in_progress', incomplete_details: null, error: null }

export function failedOutcome(code: string, message: string): Outcome {
  return { status: 'failed', incomplete_details: null, error: { code, message } }
}

export function buildResponseObject(state: ResponseState, context: EncodeContext): Record<string, unknown> {
  // One literal, the echoed request fields spread in place, and the optional fields added by name: a copy
  // made key by key (dropUndefined) turns an object of 18 or more fields into a dictionary, which every
  // later read and JSON.stringify (it sorts a dictionary's keys first) pay for.
  const body: Record<string, unknown> = {
    id: context.generationId,
    object: 'response',
    created_at: context.createdAt,
    completed_at: state.completedAt ?? null,
    model: context.model,
    status: state.outcome.status,
    output: state.output,
    output_text: outputText(state.output),
    error: state.outcome.error,
    incomplete_details: state.outcome.incomplete_details,
    ...context.echo,
  }
  if (state.usage !== undefined)
    body.usage = { ...responsesUsage(state.usage, state.costUsd ?? null, context.isByok), ...state.usageExtra }
  if (state.metadata !== undefined) body.openrouter_metadata = state.metadata
  return body
}

export function responsesUsage(usage: Usage, costUsd: number | null, isByok: boolean): Record<string, unknown> {
  return {
    input_tokens: usage.input_tokens,
    input_tokens_details: { cached_tokens: usage.cached_input_tokens },
    output_tokens: usage.output_tokens,
    output_tokens_details: { reasoning_tokens: usage.reasoning_tokens },
    total_tokens: usage.total_tokens,
    cost: costUsd,
    is_byok: isByok,
  }
}

function outputText(output: readonly Record<string, unknown>[]): string {
  return output
    .filter((item) => item.type === 'message')
    .flatMap((item) => item.content as { type: string; text?: string }[])
    .map((part) => (part.type === 'output_text' ? (part.text ?? '') : ''))
    .join('')
}

/** Stable ids for items the upstream did not name, unique within the response. */
export function outputItemId(prefix: 'msg' | 'rs' | 'fc', generationId: string, index: number): string {
  return `${prefix}_${generationId}_${index}`
}

export function messageItem(
  text: string,
  index: number,
  generationId: string,
  status: 'in_progress' | 'completed',
): Record<string, unknown> {
  const content = status === 'in_progress' ? [] : [outputTextPart(text)]
  return { id: outputItemId('msg', generationId, index), type: 'message', status, role: 'assistant', content }
}

export function outputTextPart(text: string): Record<string, unknown> {
  return { type: 'output_text', text, annotations: [], logprobs: [] }
}

export function reasoningItem(
  item: Omit<ReasoningItem, 'type'>,
  index: number,
  generationId: string,
  complete: boolean,
): Record<string, unknown> {
  const native = item.origin === 'openai-responses'
  const hasProof = item.signature !== undefined || item.encrypted_content !== undefined || item.redacted === true
  const encrypted = native
    ? item.encrypted_content
    : hasProof
      ? sealReasoning({ type: 'reasoning', ...item })
      : undefined
  return dropUndefined({
    id: native && item.id !== undefined ? item.id : outputItemId('rs', generationId, index),
    type: 'reasoning',
    summary: complete && item.text !== '' ? [summaryPart(item.text)] : [],
    encrypted_content: complete ? encrypted : undefined,
  })
}

export function summaryPart(text: string): Record<string, unknown> {
  return { type: 'summary_text', text }
}

export function functionCallItem(
  call: { id: string; name: string; arguments: string },
  index: number,
  generationId: string,
  status: 'in_progress' | 'completed',
): Record<string, unknown> {
  return {
    id: outputItemId('fc', generationId, index),
    type: 'function_call',
    status,
    call_id: call.id,
    name: call.name,
    arguments: status === 'completed' ? call.arguments : '',
  }
}

export function encodeOutputItem(item: OutputItem, index: number, generationId: string): Record<string, unknown> {
  switch (item.type) {
    case 'text':
      return messageItem(item.text, index, generationId, 'completed')
    case 'reasoning':
      return reasoningItem(item, index, generationId, true)
    case 'tool-call':
      return functionCallItem(item, index, generationId, 'completed')
  }
}
