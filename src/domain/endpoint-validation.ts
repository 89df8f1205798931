// The result of validating a private endpoint: five checks run against the customer-hosted upstream
// (api-reference §7.3). Failed checks carry a reason from a closed list and what the upstream said.

export type CheckName = 'auth_ok' | 'model_found' | 'completion_ok' | 'stream_ok' | 'usage_present'

/** In the order they run; a check that cannot run because an earlier one failed is reported failed. */
export const checkNames: readonly CheckName[] = [
  'auth_ok',
  'model_found',
  'completion_ok',
  'stream_ok',
  'usage_present',
]

export type CheckReason =
  | 'database_error'
  | 'endpoint_limit_reached'
  | 'invalid_base_url'
  | 'model_not_found'
  | 'provider_not_found'
  | 'endpoint_not_found'
  | 'workspace_not_found'
  | 'no_byok_key'
  | 'key_decryption_failed'
  | 'upstream_error'
  | 'invalid_response'
  | 'invalid_stream'
  | 'missing_usage'
  | 'model_mismatch'
  | 'not_validated'
  | 'validation_stale'

export interface EndpointCheck {
  readonly name: CheckName
  readonly passed: boolean
  readonly reason?: CheckReason
  /** The upstream's HTTP status (400–599) when it answered with an error. */
  readonly upstream_status?: number
  readonly upstream_message?: string | null
  /** The model the upstream said answered, when it said. */
  readonly actual_model?: string | null
}

export interface EndpointValidation {
  readonly passed: boolean
  readonly checks: readonly EndpointCheck[]
}

export function validationOf(checks: readonly EndpointCheck[]): EndpointValidation {
  return { passed: checks.length > 0 && checks.every((check) => check.passed), checks }
}
