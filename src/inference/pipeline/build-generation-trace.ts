// The observability trace of a finished generation, from the same facts as its record.
import type { GenerationTrace } from '../../observability/generation-trace.ts'
import type { GenerationRecord } from '../../generations/generation-record.ts'
import { nanoToUsd } from '../../domain/money.ts'
import { allocateCost } from './allocate-cost.ts'
import type { CallFacts } from './call-facts.ts'
import type { InferenceRequest } from './inference-request.ts'

const contextHeaders = ['http-referer', 'x-title', 'x-openrouter-title', 'x-openrouter-categories', 'user-agent']

export function buildGenerationTrace(
  request: InferenceRequest,
  facts: CallFacts,
  record: GenerationRecord,
  endedAtMs: number,
): GenerationTrace {
  const headers: Record<string, string> = {}
  for (const name of contextHeaders) {
    const value = request.headers[name]
    if (typeof value === 'string') headers[name] = value
  }
  return {
    generationId: record.id,
    requestId: request.requestId,
    workspaceId: record.workspaceId,
    apiKeyHash: record.keyHash,
    apiKeyName: request.key.name,
    model: record.model,
    provider: record.provider ?? 'unknown',
    timing: {
      startedAt: new Date(request.startedAt).toISOString(),
      endedAt: new Date(endedAtMs).toISOString(),
      latencyMs: endedAtMs - request.startedAt,
      timeToFirstTokenMs: facts.firstTokenAtMs === null ? null : facts.firstTokenAtMs - request.startedAt,
    },
    usage: {
      promptTokens: record.tokensPrompt,
      completionTokens: record.tokensCompletion,
      cachedTokens: record.tokensCached,
      reasoningTokens: record.tokensReasoning,
    },
    finishReason: record.finishReason,
    sessionId: record.sessionId,
    user: record.endUser ?? request.key.externalUser,
    costUsd: nanoToUsd(record.costNano),
    costAllocation:
      facts.endpoint === null || facts.usage === null
        ? null
        : allocateCost(facts.endpoint.pricing, facts.usage, record.costNano),
    requestContext: { headers, trace: facts.prepared?.decoded.options.trace ?? null },
    input: {
      messages: (facts.prepared?.decoded.call.messages ?? []).map((message) => ({
        role: message.role,
        content: textOf(message.content),
      })),
    },
    output: { text: facts.completion ?? '', reasoning: facts.reasoning === '' ? null : facts.reasoning },
  }
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part: { type?: string; text?: string }) =>
      part.type === 'text' ? (part.text ?? '') : `[${part.type ?? 'part'}]`,
    )
    .join('')
}
