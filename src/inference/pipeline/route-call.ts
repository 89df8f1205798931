// The ordered endpoints for this call, from the catalog and the request's routing preferences.
import { planRoute, type RoutePlan, type RoutingState } from '../routing/plan-route.ts'
import type { ProviderPreferences, RequestedServiceTier } from '../routing/provider-preferences.ts'
import type { WorkspaceInferenceSettings } from '../inference-deps.ts'
import type { InferenceRequest } from './inference-request.ts'
import type { PreparedCall } from './prepare-call.ts'

export function routeCall(
  request: InferenceRequest,
  prepared: PreparedCall,
  routing: RoutingState,
  settings: WorkspaceInferenceSettings,
): RoutePlan {
  const options = prepared.decoded.options
  return planRoute(
    {
      models: prepared.models,
      kind: 'text',
      provider: options.provider as ProviderPreferences | undefined,
      serviceTier: (options.service_tier ?? 'auto') as RequestedServiceTier,
      sessionKey: prepared.sessionId === null ? null : `${request.key.workspaceId}:${prepared.sessionId}`,
      usedParameters: prepared.decoded.usedParameters,
      defaultSort: settings.defaultProviderSort,
      workspaceId: request.key.workspaceId,
    },
    routing,
  )
}
