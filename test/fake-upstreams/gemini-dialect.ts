// The fake's Gemini wire format: whole GenerateContentResponse frames, CRLF-separated as Google sends them.

import type { FakeDialect } from './fake-dialect.ts'
import { memberOf, sseFrame } from './fake-dialect.ts'
import type { CompletionPlan } from './scripted-reply.ts'

const finishReasons = { stop: 'STOP', length: 'MAX_TOKENS', tool_calls: 'STOP', content_filter: 'SAFETY' } as const
const rpcStatuses: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
}

/** Gemini counts thoughts apart from candidates. */
function usageMetadata(plan: CompletionPlan): Record<string, number> {
  const usage = plan.usage
  return {
    promptTokenCount: usage.input_tokens,
    candidatesTokenCount: usage.output_tokens - usage.reasoning_tokens,
    totalTokenCount: usage.total_tokens,
    ...(usage.cached_input_tokens > 0 ? { cachedContentTokenCount: usage.cached_input_tokens } : {}),
    ...(usage.reasoning_tokens > 0 ? { thoughtsTokenCount: usage.reasoning_tokens } : {}),
  }
}

function chunk(plan: CompletionPlan, parts: unknown[], final: boolean): unknown {
  const candidate = {
    content: { parts, role: 'model' },
    ...(final ? { finishReason: finishReasons[plan.finish] } : {}),
    index: 0,
  }
  return {
    candidates: [candidate],
    usageMetadata: final
      ? usageMetadata(plan)
      : { promptTokenCount: plan.usage.input_tokens, totalTokenCount: plan.usage.input_tokens },
    modelVersion: plan.model,
    responseId: plan.id,
  }
}

function functionCallParts(plan: CompletionPlan): unknown[] {
  return plan.toolCalls.map((call) => ({
    functionCall: { name: call.name, args: JSON.parse(call.argumentPieces.join('') || '{}') as unknown },
  }))
}

function thoughtParts(pieces: readonly string[], signature: string | undefined): unknown[] {
  return pieces.map((text, i) => ({
    text,
    thought: true,
    ...(i === pieces.length - 1 && signature !== undefined ? { thoughtSignature: signature } : {}),
  }))
}

/** The text of a Gemini `content`: its parts' texts, joined. */
function textOf(content: unknown): string {
  const parts = memberOf(content, 'parts')
  return (Array.isArray(parts) ? parts : []).map((part: unknown) => String(memberOf(part, 'text') ?? '')).join('')
}

export const geminiDialect: FakeDialect = {
  basePath: '',
  route(path, body) {
    const match =
      /^\/v1beta\/models\/([^:/?]+):(generateContent|streamGenerateContent|embedContent|batchEmbedContents)(\?.*)?$/.exec(
        path,
      )
    if (match === null) return undefined
    const model = decodeURIComponent(match[1] ?? '')
    if (match[2] === 'generateContent') return { kind: 'completion', stream: false, model }
    if (match[2] === 'streamGenerateContent') return { kind: 'completion', stream: true, model }
    if (match[2] === 'embedContent') return { kind: 'embeddings', inputs: [textOf(body.content)], model, batch: false }
    return {
      kind: 'embeddings',
      inputs: (Array.isArray(body.requests) ? body.requests : []).map((request: unknown) =>
        textOf(memberOf(request, 'content')),
      ),
      model,
      batch: true,
    }
  },
  completionJson(plan) {
    const parts = [
      ...thoughtParts(
        [plan.reasoningPieces.join('')].filter((text) => text !== ''),
        plan.reasoningSignature,
      ),
      ...(plan.textPieces.length > 0 ? [{ text: plan.textPieces.join('') }] : []),
      ...functionCallParts(plan),
    ]
    return chunk(plan, parts, true)
  },
  completionFrames(plan) {
    const frames = [
      ...thoughtParts(plan.reasoningPieces, plan.reasoningSignature),
      ...plan.textPieces.map((text) => ({ text })),
    ].map((part) => chunk(plan, [part], false))
    frames.push(chunk(plan, functionCallParts(plan), true))
    return frames.map((frame) => sseFrame(frame, undefined, '\r\n'))
  },
  errorBody(status, message, errorType) {
    return { error: { code: status, message, status: errorType ?? rpcStatuses[status] ?? 'UNKNOWN' } }
  },
  embeddingsJson(vectors, route) {
    return route.batch
      ? { embeddings: vectors.map((values) => ({ values })) }
      : { embedding: { values: vectors[0] ?? [] } }
  },
}
