// What an embeddings call learns as it goes, and the generation record (api_type 'embeddings'), content
// and trace the core records from it.
import type { GatewayError } from '../../domain/errors.ts'
import type { AttemptRecord } from '../../domain/inference/attempt-record.ts'
import type { EmbeddingVector } from '../../domain/inference/embeddings.ts'
import { nanoToUsd } from '../../domain/money.ts'
import type { DecodedEmbeddingsRequest } from '../../dialects/embeddings/decode-request.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { CallRecord } from '../call/record-call.ts'
import type { CallRequest } from '../call/call-request.ts'
import { contentError, recordOf } from '../call/record-base.ts'
import { traceOfRecord } from '../call/trace-of-record.ts'

export interface EmbeddingsFacts {
  decoded: DecodedEmbeddingsRequest | null
  sessionId: string | null
  endpoint: EndpointEntry | null
  attempts: readonly AttemptRecord[]
  latencyMs: number | null
  promptTokens: number
  /** What the call is billed: its priced tokens, at most its reservation. */
  costNano: bigint
  /** What the priced tokens came to above the reservation, left unbilled. */
  unbilledExcessNano: bigint
  error: GatewayError | null
  /** Headers the response cache adds to a 200 answer (X-OpenRouter-Cache-Status, -TTL). */
  answerHeaders: Readonly<Record<string, string>>
  /** Whether the response cache captures this call's answer. */
  capture: boolean
  /** The vectors (and the endpoint that made them) as the response cache keeps them, once captured. */
  captured: CachedEmbeddings | null
  /** The generation whose cached answer this call replayed (a cache hit); else null. */
  cacheSourceId: string | null
}

export interface CachedEmbeddings {
  readonly kind: 'embeddings'
  readonly endpointId: string
  readonly vectors: readonly EmbeddingVector[]
}

export function newEmbeddingsFacts(): EmbeddingsFacts {
  return {
    decoded: null,
    sessionId: null,
    endpoint: null,
    attempts: [],
    latencyMs: null,
    promptTokens: 0,
    costNano: 0n,
    unbilledExcessNano: 0n,
    error: null,
    answerHeaders: {},
    capture: false,
    captured: null,
    cacheSourceId: null,
  }
}

export function buildEmbeddingsRecord(request: CallRequest, facts: EmbeddingsFacts, nowMs: number): CallRecord {
  const cancelled = facts.error?.kind === 'client_closed'
  const record = recordOf(
    request,
    { cancelled, error: facts.error },
    {
      apiType: 'embeddings',
      dialect: 'embeddings',
      model: facts.decoded?.model ?? 'unknown',
      provider: facts.endpoint?.provider.slug ?? null,
      upstreamModelId: facts.endpoint?.upstreamModelId ?? null,
      upstreamId: null,
      streamed: false,
      finishReason: null,
      nativeFinishReason: null,
      tokensPrompt: facts.promptTokens,
      tokensCompletion: 0,
      tokensCached: 0,
      tokensReasoning: 0,
      costNano: facts.error === null ? facts.costNano : 0n,
      responseCacheSourceId: facts.cacheSourceId,
      unbilledExcessNano: facts.error === null ? facts.unbilledExcessNano : 0n,
      latencyMs: facts.latencyMs,
      generationTimeMs: nowMs - request.startedAt,
      sessionId: facts.sessionId,
      endUser: facts.decoded?.call.user ?? null,
      preset: null,
      serviceTier: null,
      attempts: facts.attempts,
    },
  )
  const costUsd = nanoToUsd(record.costNano)
  return {
    record,
    content: () =>
      facts.decoded === null
        ? null
        : {
            input: { prompt: inputText(facts) },
            completion: null,
            reasoning: null,
            error: contentError(facts.error, facts.endpoint?.provider.slug ?? null),
          },
    trace: () =>
      traceOfRecord(request, record, nowMs, {
        firstTokenAtMs: null,
        costAllocation: { prompt: costUsd, completion: 0, cached: 0, reasoning: 0 },
        trace: facts.decoded?.trace ?? null,
        input: { messages: [{ role: 'user', content: inputText(facts) }] },
        output: { text: '', reasoning: null },
      }),
    usedTokens: facts.promptTokens,
  }
}

function inputText(facts: EmbeddingsFacts): string {
  return (facts.decoded?.call.inputs ?? [])
    .map((input) =>
      input.type === 'text'
        ? input.text
        : input.type === 'tokens'
          ? `[${input.tokens.length} tokens]`
          : input.parts.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(''),
    )
    .join('\n')
}
