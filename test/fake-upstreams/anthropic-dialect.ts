// The fake's Anthropic Messages wire format, as api.anthropic.com speaks it.

import type { FakeDialect } from './fake-dialect.ts'
import { sseFrame } from './fake-dialect.ts'
import type { CompletionPlan } from './scripted-reply.ts'

const stopReasons = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
} as const

/** Anthropic counts cache reads and writes apart from input_tokens. */
function wireUsage(plan: CompletionPlan): Record<string, number> {
  const usage = plan.usage
  return {
    input_tokens: usage.input_tokens - usage.cached_input_tokens - usage.cache_write_tokens,
    cache_creation_input_tokens: usage.cache_write_tokens,
    cache_read_input_tokens: usage.cached_input_tokens,
    output_tokens: usage.output_tokens,
  }
}

function blocks(plan: CompletionPlan): { start: unknown; deltas: unknown[]; full: unknown }[] {
  const list: { start: unknown; deltas: unknown[]; full: unknown }[] = []
  if (plan.reasoningPieces.length > 0) {
    const signature = plan.reasoningSignature ?? 'fake-signature'
    list.push({
      start: { type: 'thinking', thinking: '', signature: '' },
      deltas: [
        ...plan.reasoningPieces.map((thinking) => ({ type: 'thinking_delta', thinking })),
        { type: 'signature_delta', signature },
      ],
      full: { type: 'thinking', thinking: plan.reasoningPieces.join(''), signature },
    })
  }
  if (plan.textPieces.length > 0) {
    list.push({
      start: { type: 'text', text: '' },
      deltas: plan.textPieces.map((text) => ({ type: 'text_delta', text })),
      full: { type: 'text', text: plan.textPieces.join('') },
    })
  }
  for (const call of plan.toolCalls) {
    list.push({
      start: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      deltas: call.argumentPieces.map((partial_json) => ({ type: 'input_json_delta', partial_json })),
      full: {
        type: 'tool_use',
        id: call.id,
        name: call.name,
        input: JSON.parse(call.argumentPieces.join('') || '{}') as unknown,
      },
    })
  }
  return list
}

export const anthropicDialect: FakeDialect = {
  basePath: '',
  route(path, body) {
    return path === '/v1/messages'
      ? { kind: 'completion', stream: body?.stream === true, model: String(body?.model ?? '') }
      : undefined
  },
  completionJson(plan) {
    return {
      id: plan.id,
      type: 'message',
      role: 'assistant',
      model: plan.model,
      content: blocks(plan).map((block) => block.full),
      stop_reason: stopReasons[plan.finish],
      stop_sequence: null,
      usage: wireUsage(plan),
    }
  },
  completionFrames(plan) {
    const usage = wireUsage(plan)
    const message = {
      id: plan.id,
      type: 'message',
      role: 'assistant',
      model: plan.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    }
    const frames = [sseFrame({ type: 'message_start', message }, 'message_start'), sseFrame({ type: 'ping' }, 'ping')]
    blocks(plan).forEach((block, index) => {
      frames.push(sseFrame({ type: 'content_block_start', index, content_block: block.start }, 'content_block_start'))
      for (const delta of block.deltas)
        frames.push(sseFrame({ type: 'content_block_delta', index, delta }, 'content_block_delta'))
      frames.push(sseFrame({ type: 'content_block_stop', index }, 'content_block_stop'))
    })
    frames.push(
      sseFrame(
        {
          type: 'message_delta',
          delta: { stop_reason: stopReasons[plan.finish], stop_sequence: null },
          usage: { output_tokens: usage.output_tokens },
        },
        'message_delta',
      ),
    )
    frames.push(sseFrame({ type: 'message_stop' }, 'message_stop'))
    return frames
  },
  errorBody(status, message, errorType) {
    const byStatus: Record<number, string> = {
      400: 'invalid_request_error',
      401: 'authentication_error',
      404: 'not_found_error',
      429: 'rate_limit_error',
      529: 'overloaded_error',
    }
    return { type: 'error', error: { type: errorType ?? byStatus[status] ?? 'api_error', message } }
  },
  embeddingsJson() {
    throw new Error('Anthropic has no embeddings endpoint')
  },
}
