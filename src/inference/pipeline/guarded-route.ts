// The route and the budget scopes of one text call under the key's guardrails and the workspace's
// budgets; shared by the plain pipeline and every step of the server-tool loop.
import type { InferenceDeps, WorkspaceInferenceSettings } from '../inference-deps.ts'
import { guardPlan, type GuardedPlan } from './guard-plan.ts'
import type { InferenceRequest } from './inference-request.ts'
import type { PreparedCall } from './prepare-call.ts'
import { routeCall } from './route-call.ts'

export function guardedRoute(
  request: InferenceRequest,
  prepared: PreparedCall,
  deps: InferenceDeps,
  settings: WorkspaceInferenceSettings,
): GuardedPlan {
  return guardPlan(request.key, routeCall(request, prepared, deps.routing, settings), deps, settings)
}
