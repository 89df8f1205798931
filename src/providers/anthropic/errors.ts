// Anthropic errors: `{type: "error", error: {type, message}}`, the same shape as the stream's error event.

import type { ErrorKind } from '../../domain/errors.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { ResponseHeaders, UpstreamFailure } from '../provider-adapter.ts'
import { lookupKind, parseErrorBody, upstreamFailure } from '../upstream-failure.ts'
import type { AnthropicErrorBody } from './wire.ts'

const typeKinds: Readonly<Record<string, ErrorKind>> = {
  invalid_request_error: 'invalid_request',
  authentication_error: 'upstream_error',
  permission_error: 'upstream_error',
  billing_error: 'upstream_error',
  not_found_error: 'upstream_error',
  request_too_large: 'payload_too_large',
  rate_limit_error: 'rate_limited',
  api_error: 'upstream_error',
  timeout_error: 'upstream_timeout',
  overloaded_error: 'upstream_overloaded',
}

export function classifyAnthropicError(status: number, body: string, headers: ResponseHeaders): UpstreamFailure {
  const error = (parseErrorBody(body) as AnthropicErrorBody | undefined)?.error
  return upstreamFailure({
    provider: 'Anthropic',
    status,
    typeKind: lookupKind(typeKinds, error?.type),
    upstreamMessage: error?.message,
    headers,
  })
}

export function anthropicStreamError(body: AnthropicErrorBody): StreamEvent {
  return {
    type: 'stream-error',
    kind: lookupKind(typeKinds, body.error?.type) ?? 'upstream_error',
    message: `Anthropic: ${body.error?.message ?? 'error event in stream'}`,
  }
}
