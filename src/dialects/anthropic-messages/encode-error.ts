// Errors in Anthropic's shape: `{type: "error", error: {type, message}}` with the kind's HTTP status;
// an HTTP error answer also carries `code`, the status, inside `error` (as the spec's envelope does).

import { errorKinds } from '../../domain/errors.ts'
import type { ErrorKind, GatewayError } from '../../domain/errors.ts'
import type { EncodedError } from '../dialect.ts'

export type AnthropicErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'timeout_error'
  | 'api_error'
  | 'overloaded_error'

export const anthropicErrorTypes: Readonly<Record<ErrorKind, AnthropicErrorType>> = {
  invalid_request: 'invalid_request_error',
  unauthorized: 'authentication_error',
  payment_required: 'billing_error',
  forbidden: 'permission_error',
  not_found: 'not_found_error',
  method_not_allowed: 'invalid_request_error',
  timeout: 'timeout_error',
  conflict: 'invalid_request_error',
  gone: 'not_found_error',
  payload_too_large: 'request_too_large',
  unsupported_media_type: 'invalid_request_error',
  unprocessable: 'invalid_request_error',
  idempotency_key_reused: 'invalid_request_error',
  rate_limited: 'rate_limit_error',
  client_closed: 'api_error',
  internal: 'api_error',
  upstream_error: 'api_error',
  unavailable: 'api_error',
  upstream_timeout: 'timeout_error',
  origin_timeout: 'timeout_error',
  upstream_overloaded: 'overloaded_error',
}

export function anthropicErrorBody(kind: ErrorKind, message: string): Record<string, unknown> {
  return { type: 'error', error: { type: anthropicErrorTypes[kind], message } }
}

export function encodeMessagesError(error: GatewayError): EncodedError {
  const status = errorKinds[error.kind].status
  return {
    status,
    body: { type: 'error', error: { type: anthropicErrorTypes[error.kind], message: error.message, code: status } },
  }
}
