// The embeddings pipeline's `finally`: settle (or release) the reservation, add the generation record
// (api_type 'embeddings') with its content when the workspace stores IO, wait until both are durable
// (the route answers after), and broadcast it.
import type { GatewayError } from '../../domain/errors.ts'
import type { AttemptRecord } from '../../domain/inference/attempt-record.ts'
import { nanoToUsd } from '../../domain/money.ts'
import type { DecodedEmbeddingsRequest } from '../../dialects/embeddings/decode-request.ts'
import type { GenerationContent, GenerationRecord } from '../../generations/generation-record.ts'
import type { GenerationTrace } from '../../observability/generation-trace.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { InferenceDeps, SpendReservation } from '../inference-deps.ts'
import type { RoutePlan } from '../routing/plan-route.ts'
import type { EmbeddingsRequest } from './run-embeddings.ts'

export interface EmbeddingsFacts {
  decoded: DecodedEmbeddingsRequest | null
  sessionId: string | null
  plan: RoutePlan | null
  endpoint: EndpointEntry | null
  attempts: readonly AttemptRecord[]
  latencyMs: number | null
  promptTokens: number
  costNano: bigint
  /** What the priced usage came to above the reservation, left unbilled (set by settling). */
  unbilledExcessNano: bigint
  error: GatewayError | null
}

export function newEmbeddingsFacts(): EmbeddingsFacts {
  return {
    decoded: null,
    sessionId: null,
    plan: null,
    endpoint: null,
    attempts: [],
    latencyMs: null,
    promptTokens: 0,
    costNano: 0n,
    unbilledExcessNano: 0n,
    error: null,
  }
}

export async function recordEmbeddings(
  request: EmbeddingsRequest,
  facts: EmbeddingsFacts,
  reservation: SpendReservation | null,
  deps: InferenceDeps,
): Promise<void> {
  try {
    if (reservation !== null && facts.endpoint !== null && facts.costNano > 0n && facts.error === null) {
      const charge = await deps.accounting.settle(reservation, {
        costNano: facts.costNano,
        model: facts.decoded!.model,
        provider: facts.endpoint.provider.slug,
        promptTokens: facts.promptTokens,
        completionTokens: 0,
        endUser: facts.decoded?.call.user ?? null,
      })
      facts.costNano = charge.billedNano
      facts.unbilledExcessNano = charge.unbilledExcessNano
    } else if (reservation !== null) {
      await deps.accounting.release(reservation)
    }
  } catch (error) {
    deps.logger.error({ err: error, generationId: request.generationId }, 'could not settle an embeddings generation')
  }
  const now = deps.clock.now().getTime()
  const record = buildEmbeddingsRecord(request, facts, now)
  const content = deps.workspaceSettings(request.key).shouldStoreContent(request.key, request.generationId)
    ? buildEmbeddingsContent(facts)
    : null
  deps.generations.add(record, content)
  await deps.settlements.durable(request.generationId)
  if (facts.endpoint === null || record.status === 'failed' || deps.onGeneration === undefined) return
  try {
    deps.onGeneration(buildEmbeddingsTrace(request, facts, record, now))
  } catch (error) {
    deps.logger.warn({ err: error }, 'generation broadcast failed')
  }
}

function header(request: EmbeddingsRequest, name: string): string | null {
  const value = request.headers[name]
  return typeof value === 'string' ? value.slice(0, 512) : null
}

function buildEmbeddingsRecord(request: EmbeddingsRequest, facts: EmbeddingsFacts, nowMs: number): GenerationRecord {
  const cancelled = facts.error?.kind === 'client_closed'
  return {
    id: request.generationId,
    requestId: request.requestId,
    organizationId: request.key.organizationId,
    workspaceId: request.key.workspaceId,
    keyHash: request.key.hash,
    apiType: 'embeddings',
    dialect: 'embeddings',
    model: facts.decoded?.model ?? 'unknown',
    provider: facts.endpoint?.provider.slug ?? null,
    upstreamModelId: facts.endpoint?.upstreamModelId ?? null,
    upstreamId: null,
    streamed: false,
    cancelled,
    status: cancelled ? 'cancelled' : facts.error === null ? 'completed' : 'failed',
    finishReason: null,
    nativeFinishReason: null,
    tokensPrompt: facts.promptTokens,
    tokensCompletion: 0,
    tokensCached: 0,
    tokensReasoning: 0,
    costNano: facts.error === null ? facts.costNano : 0n,
    unbilledExcessNano: facts.error === null ? facts.unbilledExcessNano : 0n,
    isByok: false,
    latencyMs: facts.latencyMs,
    generationTimeMs: nowMs - request.startedAt,
    sessionId: facts.sessionId,
    endUser: facts.decoded?.call.user ?? null,
    preset: null,
    serviceTier: null,
    attempts: facts.attempts,
    errorStatus: facts.error?.status ?? null,
    errorMessage: facts.error?.message ?? null,
    httpReferer: header(request, 'http-referer'),
    userAgent: header(request, 'user-agent'),
    createdAt: new Date(request.startedAt).toISOString(),
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

function buildEmbeddingsContent(facts: EmbeddingsFacts): GenerationContent | null {
  if (facts.decoded === null) return null
  return {
    input: { prompt: inputText(facts) },
    completion: null,
    reasoning: null,
    error:
      facts.error === null
        ? null
        : {
            status: facts.error.status,
            message: facts.error.message,
            provider_name: facts.endpoint?.provider.slug ?? null,
          },
  }
}

function buildEmbeddingsTrace(
  request: EmbeddingsRequest,
  facts: EmbeddingsFacts,
  record: GenerationRecord,
  endedAtMs: number,
): GenerationTrace {
  const headers: Record<string, string> = {}
  for (const name of ['http-referer', 'x-title', 'x-openrouter-title', 'user-agent']) {
    const value = request.headers[name]
    if (typeof value === 'string') headers[name] = value
  }
  const costUsd = nanoToUsd(record.costNano)
  return {
    generationId: record.id,
    requestId: request.requestId,
    workspaceId: record.workspaceId,
    apiKeyHash: record.keyHash,
    apiKeyName: request.key.name,
    model: record.model,
    provider: record.provider ?? 'unknown',
    timing: {
      startedAt: record.createdAt,
      endedAt: new Date(endedAtMs).toISOString(),
      latencyMs: endedAtMs - request.startedAt,
      timeToFirstTokenMs: null,
    },
    usage: { promptTokens: record.tokensPrompt, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 },
    finishReason: null,
    sessionId: record.sessionId,
    user: record.endUser ?? request.key.externalUser,
    costUsd,
    costAllocation: { prompt: costUsd, completion: 0, cached: 0, reasoning: 0 },
    requestContext: { headers, trace: facts.decoded?.trace ?? null },
    input: { messages: [{ role: 'user', content: inputText(facts) }] },
    output: { text: '', reasoning: null },
  }
}
