// What a text call asks of routing: its models and the request's routing preferences, under the
// workspace's default sort; the core plans the route from it (src/inference/call/plan-call.ts).
import type { RouteRequest } from '../routing/plan-route.ts'
import type { ProviderPreferences, RequestedServiceTier } from '../routing/provider-preferences.ts'
import type { WorkspaceInferenceSettings } from '../call/call-policy.ts'
import type { InferenceRequest } from './inference-request.ts'
import type { PreparedCall } from './prepare-call.ts'

export function textRoute(
  request: InferenceRequest,
  prepared: PreparedCall,
  settings: WorkspaceInferenceSettings,
): RouteRequest {
  const options = prepared.decoded.options
  return {
    models: prepared.models,
    kind: 'text',
    provider: options.provider as ProviderPreferences | undefined,
    serviceTier: (options.service_tier ?? 'auto') as RequestedServiceTier,
    sessionKey: prepared.sessionId === null ? null : `${request.key.workspaceId}:${prepared.sessionId}`,
    usedParameters: prepared.decoded.usedParameters,
    defaultSort: settings.defaultProviderSort,
    workspaceId: request.key.workspaceId,
  }
}
