// The fake's Chat Completions (and embeddings) wire format, as api.openai.com/v1 speaks it.

import type { FakeDialect } from './fake-dialect.ts'
import { inputsOf, sseFrame } from './fake-dialect.ts'
import type { CompletionPlan } from './scripted-reply.ts'

/** OpenAI's `type` and `code` for the statuses tests script; anything else is a server_error. */
const errorShapes: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
}

export function openaiErrorBody(status: number, message: string, errorType: string | undefined): unknown {
  const shape =
    errorType === undefined
      ? (errorShapes[status] ?? { type: 'server_error', code: null })
      : { type: errorType, code: errorType }
  return { error: { message, type: shape.type, param: null, code: shape.code } }
}

const finishReasons = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  content_filter: 'content_filter',
} as const

function chatUsage(plan: CompletionPlan): unknown {
  const usage = plan.usage
  return {
    prompt_tokens: usage.input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens,
    prompt_tokens_details: { cached_tokens: usage.cached_input_tokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoning_tokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  }
}

function chunk(plan: CompletionPlan, delta: unknown, finish: string | null = null): string {
  return sseFrame({
    id: plan.id,
    object: 'chat.completion.chunk',
    created: 1747130000,
    model: plan.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
  })
}

export const openaiChatDialect: FakeDialect = {
  basePath: '/v1',
  route(path, body) {
    if (path === '/v1/chat/completions')
      return { kind: 'completion', stream: body?.stream === true, model: String(body?.model ?? '') }
    if (path === '/v1/embeddings')
      return {
        kind: 'embeddings',
        inputs: inputsOf(body?.input),
        model: String(body?.model ?? ''),
        batch: true,
        base64: body?.encoding_format === 'base64',
      }
    return undefined
  },
  completionJson(plan) {
    const reasoning = plan.reasoningPieces.join('')
    const calls = plan.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.argumentPieces.join('') },
    }))
    const message = {
      role: 'assistant',
      content: plan.textPieces.length === 0 ? null : plan.textPieces.join(''),
      ...(reasoning === '' ? {} : { reasoning_content: reasoning }),
      ...(calls.length === 0 ? {} : { tool_calls: calls }),
      refusal: null,
    }
    return {
      id: plan.id,
      object: 'chat.completion',
      created: 1747130000,
      model: plan.model,
      choices: [{ index: 0, message, logprobs: chatLogprobs(plan), finish_reason: finishReasons[plan.finish] }],
      usage: chatUsage(plan),
    }
  },
  completionFrames(plan) {
    const frames = [chunk(plan, { role: 'assistant', content: '', refusal: null })]
    for (const piece of plan.reasoningPieces) frames.push(chunk(plan, { reasoning_content: piece }))
    for (const piece of plan.textPieces) frames.push(chunk(plan, { content: piece }))
    plan.toolCalls.forEach((call, index) => {
      frames.push(
        chunk(plan, {
          tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }],
        }),
      )
      for (const piece of call.argumentPieces)
        frames.push(chunk(plan, { tool_calls: [{ index, function: { arguments: piece } }] }))
    })
    frames.push(chunk(plan, {}, finishReasons[plan.finish]))
    frames.push(
      sseFrame({
        id: plan.id,
        object: 'chat.completion.chunk',
        created: 1747130000,
        model: plan.model,
        choices: [],
        usage: chatUsage(plan),
      }),
    )
    frames.push(sseFrame('[DONE]'))
    return frames
  },
  errorBody: openaiErrorBody,
  embeddingsJson(vectors, route, reportedTokens) {
    const tokens = reportedTokens ?? route.inputs.reduce((sum, input) => sum + Math.ceil(input.length / 4), 0)
    return {
      object: 'list',
      data: vectors.map((vector, index) => ({
        object: 'embedding',
        index,
        embedding: route.base64 === true ? float32Base64(vector) : vector,
      })),
      model: route.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    }
  },
}

function chatLogprobs(plan: CompletionPlan): unknown {
  if (plan.logprobs === undefined) return null
  const withBytes = (token: string, logprob: number) => ({ token, logprob, bytes: [...Buffer.from(token, 'utf8')] })
  return {
    content: plan.logprobs.map((entry) => ({
      ...withBytes(entry.token, entry.logprob),
      top_logprobs: (entry.top_logprobs ?? []).map((top) => withBytes(top.token, top.logprob)),
    })),
    refusal: null,
  }
}

function float32Base64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4)
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4))
  return bytes.toString('base64')
}
