// Chat Completions errors: `{error: {message, type, code}}`. The code (then type) table overrides the
// status table; OpenAI-compatible servers that answer other shapes fall back to the status.

import type { ErrorKind } from '../../domain/errors.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { ResponseHeaders, UpstreamFailure } from '../provider-adapter.ts'
import { lookupKind, parseErrorBody, upstreamFailure } from '../upstream-failure.ts'
import type { ChatErrorBody } from './wire.ts'

const codeKinds: Readonly<Record<string, ErrorKind>> = {
  insufficient_quota: 'upstream_error',
  model_not_found: 'upstream_error',
  rate_limit_exceeded: 'rate_limited',
  context_length_exceeded: 'invalid_request',
  server_error: 'upstream_error',
}

export function errorKindOf(error: ChatErrorBody['error']): ErrorKind | undefined {
  return lookupKind(codeKinds, error?.code) ?? lookupKind(codeKinds, error?.type)
}

export function classifyChatError(status: number, body: string, headers: ResponseHeaders): UpstreamFailure {
  const error = (parseErrorBody(body) as ChatErrorBody | undefined)?.error
  return upstreamFailure({
    provider: 'OpenAI-compatible upstream',
    status,
    typeKind: errorKindOf(error),
    upstreamMessage: error?.message,
    headers,
  })
}

/** A `data: {"error": ...}` frame some servers send mid-stream. */
export function chatStreamError(error: NonNullable<ChatErrorBody['error']>): StreamEvent {
  return {
    type: 'stream-error',
    kind: errorKindOf(error) ?? 'upstream_error',
    message: error.message ?? 'The upstream reported an error mid-stream',
  }
}
