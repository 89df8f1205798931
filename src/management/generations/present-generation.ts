// Generation records in the public shapes of GET /generation and GET /generation/content.
import { nanoToUsd } from '../../domain/money.ts'
import type { GenerationContent, GenerationRecord } from '../../generations/generation-record.ts'
import type { Generation } from './generation-schema.ts'

export function presentGeneration(record: GenerationRecord): Generation {
  const cost = nanoToUsd(record.costNano)
  return {
    id: record.id,
    upstream_id: record.upstreamId,
    total_cost: cost,
    usage: cost,
    cache_discount: null,
    unbilled_excess_cost: nanoToUsd(record.unbilledExcessNano),
    upstream_inference_cost: null,
    created_at: record.createdAt,
    model: record.model,
    app_id: null,
    streamed: record.streamed,
    cancelled: record.cancelled,
    provider_name: record.provider,
    latency: record.latencyMs,
    moderation_latency: null,
    generation_time: record.generationTimeMs,
    finish_reason: record.finishReason,
    native_finish_reason: record.nativeFinishReason,
    tokens_prompt: record.tokensPrompt,
    tokens_completion: record.tokensCompletion,
    native_tokens_prompt: record.tokensPrompt,
    native_tokens_completion: record.tokensCompletion,
    native_tokens_completion_images: null,
    native_tokens_reasoning: record.tokensReasoning,
    native_tokens_cached: record.tokensCached,
    num_media_prompt: null,
    num_input_audio_prompt: null,
    num_media_completion: null,
    num_search_results: null,
    num_fetches: null,
    origin: '',
    is_byok: record.isByok,
    api_type: record.apiType,
    data_region: 'global',
    external_user: record.endUser,
    http_referer: record.httpReferer,
    user_agent: record.userAgent,
    preset_id: record.preset,
    router: null,
    service_tier: record.serviceTier,
    web_search_engine: null,
    workspace_id: record.workspaceId,
    request_id: record.requestId,
    session_id: record.sessionId,
    response_cache_source_id: record.responseCacheSourceId,
    provider_responses: record.attempts.map((attempt) => ({
      status: attempt.status,
      provider_name: attempt.provider,
      endpoint_id: attempt.endpointId,
      latency: attempt.latencyMs,
      is_byok: record.isByok,
    })),
  }
}

export function presentGenerationContent(content: GenerationContent, record: GenerationRecord) {
  const error =
    content.error ??
    (record.status === 'failed'
      ? { status: record.errorStatus, message: record.errorMessage, provider_name: record.provider }
      : null)
  return {
    input: content.input,
    output: { completion: content.completion, reasoning: content.reasoning },
    error: error === null ? null : { ...error, raw: null, previous_errors: [] },
  }
}
