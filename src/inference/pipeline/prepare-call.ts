// Decode -> workspace defaults -> server-tool checks: what the client asked for, in canonical form.
// Requests naming server tools then run the server-tool loop (src/inference/server-tools/).
import { GatewayError } from '../../domain/errors.ts'
import type { DecodedRequest } from '../../dialects/dialect.ts'
import type { WorkspaceInferenceSettings } from '../call/call-policy.ts'
import { sessionHeader } from '../call/session-header.ts'
import type { InferenceRequest } from './inference-request.ts'

export interface PreparedCall {
  readonly decoded: DecodedRequest
  readonly models: readonly string[]
  readonly sessionId: string | null
  /** The preset applied (`@preset/<slug>` or `preset`), or null. */
  readonly preset: string | null
}

export function prepareCall(
  request: InferenceRequest,
  body: unknown,
  settings: WorkspaceInferenceSettings,
  preset: string | null,
): PreparedCall {
  const decoded = request.dialect.decode(body)
  const models =
    decoded.models.length > 0 ? decoded.models : settings.defaultTextModel === null ? [] : [settings.defaultTextModel]
  if (models.length === 0) {
    throw new GatewayError(
      'invalid_request',
      'Invalid request parameters: model is required (or set a default_text_model on the workspace)',
    )
  }
  for (const tool of decoded.serverTools) {
    if (settings.disabledServerTools.includes(tool))
      throw new GatewayError('forbidden', `The server tool ${tool} is disabled for this workspace`)
  }
  return { decoded, models, sessionId: decoded.options.session_id ?? sessionHeader(request.headers), preset }
}
