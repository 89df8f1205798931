// Responses API errors: HTTP bodies are `{error: {message, type, code}}` like Chat Completions; the
// stream reports `error` events and `response.failed` with a `code`.

import type { ErrorKind } from '../../domain/errors.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { ResponseHeaders, UpstreamFailure } from '../provider-adapter.ts'
import { lookupKind, parseErrorBody, upstreamFailure } from '../upstream-failure.ts'
import type { ResponsesError } from './wire.ts'

const codeKinds: Readonly<Record<string, ErrorKind>> = {
  insufficient_quota: 'upstream_error',
  model_not_found: 'upstream_error',
  rate_limit_exceeded: 'rate_limited',
  context_length_exceeded: 'invalid_request',
  invalid_prompt: 'invalid_request',
  server_error: 'upstream_error',
}

function kindOf(error: ResponsesError | null | undefined): ErrorKind | undefined {
  return lookupKind(codeKinds, error?.code) ?? lookupKind(codeKinds, error?.type)
}

export function classifyResponsesError(status: number, body: string, headers: ResponseHeaders): UpstreamFailure {
  const error = (parseErrorBody(body) as { error?: ResponsesError } | undefined)?.error
  return upstreamFailure({
    provider: 'OpenAI',
    status,
    typeKind: kindOf(error),
    upstreamMessage: error?.message,
    headers,
  })
}

export function responsesStreamError(error: ResponsesError | null | undefined): StreamEvent {
  return {
    type: 'stream-error',
    kind: kindOf(error) ?? 'upstream_error',
    message: `OpenAI: ${error?.message ?? 'the response failed'}`,
  }
}
