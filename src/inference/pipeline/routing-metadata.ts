// `openrouter_metadata`: how the request was routed, only for callers that opt in.
import type { AttemptRecord } from '../../domain/inference/attempt-record.ts'
import type { RoutePlan } from '../routing/plan-route.ts'

export function routingMetadata(
  plan: RoutePlan,
  requested: string,
  attempts: readonly AttemptRecord[],
  generationTimeMs: number | null,
  selectedEndpointId: string | null,
) {
  const fallback = attempts.length > 1
  const selected = attempts.at(-1)
  return {
    attempt: attempts.length,
    attempts: attempts.map((attempt) => ({ model: attempt.model, provider: attempt.provider, status: attempt.status })),
    endpoints: {
      total: plan.considered.length,
      available: plan.candidates.map((candidate) => ({
        model: candidate.model.slug,
        provider: candidate.endpoint.provider.slug,
        selected: candidate.endpoint.id === selectedEndpointId,
      })),
    },
    ...(generationTimeMs === null ? {} : { generation_time: generationTimeMs }),
    is_byok: false,
    region: null,
    requested,
    strategy: fallback ? 'fallback' : 'direct',
    summary:
      selected === undefined
        ? `no endpoint answered ${requested}`
        : `${requested} served by ${selected.provider}${fallback ? ` after ${attempts.length - 1} failed attempt(s)` : ''}`,
  }
}
