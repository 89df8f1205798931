// The generation record (and, when the workspace stores IO, its content) of a client-dialect call, from
// its call facts.
import type { GenerationContent, GenerationRecord } from '../../generations/generation-record.ts'
import type { Message } from '../../domain/inference/message.ts'
import { contentError, recordOf } from '../call/record-base.ts'
import type { CallFacts } from './call-facts.ts'
import type { InferenceRequest } from './inference-request.ts'

export function buildGenerationRecord(request: InferenceRequest, facts: CallFacts, nowMs: number): GenerationRecord {
  const usage = facts.usage
  const options = facts.prepared?.decoded.options
  return recordOf(request, facts, {
    apiType: request.apiType ?? 'completions',
    dialect: request.dialect.name,
    model: facts.prepared?.models[0] ?? 'unknown',
    provider: facts.endpoint?.provider.slug ?? null,
    upstreamModelId: facts.endpoint?.upstreamModelId ?? null,
    upstreamId: facts.upstreamId,
    streamed: facts.streamed,
    finishReason: facts.finishReason,
    nativeFinishReason: facts.nativeFinishReason,
    tokensPrompt: usage?.input_tokens ?? 0,
    tokensCompletion: usage?.output_tokens ?? 0,
    tokensCached: usage?.cached_input_tokens ?? 0,
    tokensReasoning: usage?.reasoning_tokens ?? 0,
    costNano: facts.costNano,
    unbilledExcessNano: facts.unbilledExcessNano,
    responseCacheSourceId: facts.cacheSourceId,
    latencyMs: facts.latencyMs,
    generationTimeMs: facts.generationTimeMs ?? nowMs - request.startedAt,
    sessionId: facts.prepared?.sessionId ?? null,
    endUser: options?.user ?? null,
    preset: facts.prepared?.preset ?? null,
    serviceTier: options?.service_tier ?? null,
    attempts: facts.attempts,
  })
}

export function buildGenerationContent(facts: CallFacts): GenerationContent | null {
  if (facts.prepared === null) return null
  const messages = facts.prepared.decoded.call.messages.map((message: Message) => ({
    role: message.role,
    content: message.content,
  }))
  return {
    input: { messages },
    completion: facts.completion,
    reasoning: facts.reasoning === '' ? null : facts.reasoning,
    error: contentError(facts.error, facts.endpoint?.provider.slug ?? null),
  }
}
