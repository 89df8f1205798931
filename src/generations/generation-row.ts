// Generation records and their content as stored rows (timestamps ISO text, booleans 0/1, nano-USD as
// decimal text, attempts and content as JSON text), and back.
import type { Database } from '../store/database.ts'
import type { GenerationContent, GenerationRecord } from './generation-record.ts'

export function toGenerationRow(record: GenerationRecord): Database['generations'] {
  return {
    id: record.id,
    request_id: record.requestId,
    organization_id: record.organizationId,
    workspace_id: record.workspaceId,
    key_hash: record.keyHash,
    api_type: record.apiType,
    dialect: record.dialect,
    model: record.model,
    provider: record.provider,
    upstream_model_id: record.upstreamModelId,
    upstream_id: record.upstreamId,
    streamed: record.streamed ? 1 : 0,
    cancelled: record.cancelled ? 1 : 0,
    status: record.status,
    finish_reason: record.finishReason,
    native_finish_reason: record.nativeFinishReason,
    tokens_prompt: record.tokensPrompt,
    tokens_completion: record.tokensCompletion,
    tokens_cached: record.tokensCached,
    tokens_reasoning: record.tokensReasoning,
    cost_nano: record.costNano.toString(),
    unbilled_excess_nano: record.unbilledExcessNano.toString(),
    response_cache_source_id: record.responseCacheSourceId,
    is_byok: record.isByok ? 1 : 0,
    latency_ms: record.latencyMs,
    generation_time_ms: record.generationTimeMs,
    session_id: record.sessionId,
    end_user: record.endUser,
    preset: record.preset,
    service_tier: record.serviceTier,
    attempts: JSON.stringify(record.attempts),
    error_status: record.errorStatus,
    error_message: record.errorMessage,
    http_referer: record.httpReferer,
    user_agent: record.userAgent,
    created_at: record.createdAt,
  }
}

export function fromGenerationRow(row: Database['generations']): GenerationRecord {
  return {
    id: row.id,
    requestId: row.request_id,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    keyHash: row.key_hash,
    apiType: row.api_type as GenerationRecord['apiType'],
    dialect: row.dialect,
    model: row.model,
    provider: row.provider,
    upstreamModelId: row.upstream_model_id,
    upstreamId: row.upstream_id,
    streamed: row.streamed === 1,
    cancelled: row.cancelled === 1,
    status: row.status as GenerationRecord['status'],
    finishReason: row.finish_reason,
    nativeFinishReason: row.native_finish_reason,
    tokensPrompt: row.tokens_prompt,
    tokensCompletion: row.tokens_completion,
    tokensCached: row.tokens_cached,
    tokensReasoning: row.tokens_reasoning,
    costNano: BigInt(row.cost_nano),
    unbilledExcessNano: BigInt(row.unbilled_excess_nano),
    responseCacheSourceId: row.response_cache_source_id,
    isByok: row.is_byok === 1,
    latencyMs: row.latency_ms,
    generationTimeMs: row.generation_time_ms,
    sessionId: row.session_id,
    endUser: row.end_user,
    preset: row.preset,
    serviceTier: row.service_tier,
    attempts: JSON.parse(row.attempts),
    errorStatus: row.error_status,
    errorMessage: row.error_message,
    httpReferer: row.http_referer,
    userAgent: row.user_agent,
    createdAt: row.created_at,
  }
}

export function toContentRow(record: GenerationRecord, content: GenerationContent): Database['generation_contents'] {
  return {
    generation_id: record.id,
    workspace_id: record.workspaceId,
    input: JSON.stringify(content.input),
    output_completion: content.completion,
    output_reasoning: content.reasoning,
    error: content.error === null ? null : JSON.stringify(content.error),
    created_at: record.createdAt,
  }
}

export function fromContentRow(row: Database['generation_contents']): GenerationContent {
  return {
    input: JSON.parse(row.input),
    completion: row.output_completion,
    reasoning: row.output_reasoning,
    error: row.error === null ? null : JSON.parse(row.error),
  }
}
