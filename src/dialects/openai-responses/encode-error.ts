// Responses errors: the standard envelope before a stream starts; mid-stream, the `error` event and a
// failed response carry one of the Responses API's error codes.

import type { ErrorKind } from '../../domain/errors.ts'

export type ResponsesErrorCode = 'server_error' | 'rate_limit_exceeded' | 'invalid_prompt'

export const responsesErrorCodes: Readonly<Record<ErrorKind, ResponsesErrorCode>> = {
  invalid_request: 'invalid_prompt',
  unauthorized: 'server_error',
  payment_required: 'server_error',
  forbidden: 'server_error',
  not_found: 'server_error',
  method_not_allowed: 'server_error',
  timeout: 'server_error',
  conflict: 'server_error',
  gone: 'server_error',
  payload_too_large: 'invalid_prompt',
  unsupported_media_type: 'invalid_prompt',
  unprocessable: 'invalid_prompt',
  idempotency_key_reused: 'server_error',
  rate_limited: 'rate_limit_exceeded',
  client_closed: 'server_error',
  internal: 'server_error',
  upstream_error: 'server_error',
  unavailable: 'server_error',
  upstream_timeout: 'server_error',
  origin_timeout: 'server_error',
  upstream_overloaded: 'server_error',
}

export { encodeEnvelopeError as encodeResponsesError } from '../encode-envelope-error.ts'
