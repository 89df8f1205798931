// Gemini errors follow google.rpc.Status: `{error: {code, message, status, details}}`. The `status`
// table overrides the HTTP status table; RetryInfo in details gives the retry delay.

import type { ErrorKind } from '../../domain/errors.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { ResponseHeaders, UpstreamFailure } from '../provider-adapter.ts'
import { lookupKind, parseErrorBody, upstreamFailure } from '../upstream-failure.ts'
import type { GeminiErrorBody } from './wire.ts'

const statusKinds: Readonly<Record<string, ErrorKind>> = {
  INVALID_ARGUMENT: 'invalid_request',
  OUT_OF_RANGE: 'invalid_request',
  FAILED_PRECONDITION: 'upstream_error',
  UNAUTHENTICATED: 'upstream_error',
  PERMISSION_DENIED: 'upstream_error',
  NOT_FOUND: 'upstream_error',
  RESOURCE_EXHAUSTED: 'rate_limited',
  INTERNAL: 'upstream_error',
  UNAVAILABLE: 'upstream_overloaded',
  DEADLINE_EXCEEDED: 'upstream_timeout',
}

type GeminiError = NonNullable<GeminiErrorBody['error']>

function retryDelaySeconds(error: GeminiError | undefined): number | undefined {
  const delay = error?.details?.find(
    (detail) => detail['@type'] === 'type.googleapis.com/google.rpc.RetryInfo',
  )?.retryDelay
  const seconds = delay === undefined ? Number.NaN : Number.parseFloat(delay)
  return Number.isFinite(seconds) ? Math.ceil(seconds) : undefined
}

export function classifyGeminiError(status: number, body: string, headers: ResponseHeaders): UpstreamFailure {
  const error = (parseErrorBody(body) as GeminiErrorBody | undefined)?.error
  const bodyRetry = retryDelaySeconds(error)
  return upstreamFailure({
    provider: 'Gemini',
    status,
    typeKind: lookupKind(statusKinds, error?.status),
    upstreamMessage: error?.message,
    headers,
    ...(bodyRetry === undefined ? {} : { bodyRetryAfterSeconds: bodyRetry }),
  })
}

export function geminiStreamError(error: GeminiError): StreamEvent {
  return {
    type: 'stream-error',
    kind: lookupKind(statusKinds, error.status) ?? 'upstream_error',
    message: `Gemini: ${error.message ?? 'error in stream'}`,
  }
}
