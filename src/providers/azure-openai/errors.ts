// Azure OpenAI errors: `{error: {code, message}}` where `code` is Azure's (`DeploymentNotFound`,
// `content_filter`, `429`, ...) or OpenAI's. Azure's codes are looked up first, then the status table.
// Throttling is a 429 whose retry delay is 1 s when Azure gives none (as for Bedrock and Vertex).
import type { ErrorKind } from '../../domain/errors.ts'
import type { ResponseHeaders, UpstreamFailure } from '../provider-adapter.ts'
import { lookupKind, parseErrorBody, upstreamFailure } from '../upstream-failure.ts'

const codeKinds: Readonly<Record<string, ErrorKind>> = {
  '429': 'rate_limited',
  RateLimitReached: 'rate_limited',
  rate_limit_exceeded: 'rate_limited',
  DeploymentNotFound: 'upstream_error',
  content_filter: 'invalid_request',
  context_length_exceeded: 'invalid_request',
  invalid_request_error: 'invalid_request',
  InternalServerError: 'upstream_error',
  server_error: 'upstream_error',
}

interface AzureErrorBody {
  readonly error?: { readonly code?: unknown; readonly type?: unknown; readonly message?: unknown }
}

export function classifyAzureError(status: number, body: string, headers: ResponseHeaders): UpstreamFailure {
  const error = (parseErrorBody(body) as AzureErrorBody | undefined)?.error
  const failure = upstreamFailure({
    provider: 'Azure OpenAI',
    status,
    typeKind: lookupKind(codeKinds, error?.code) ?? lookupKind(codeKinds, error?.type),
    upstreamMessage: typeof error?.message === 'string' ? error.message : undefined,
    headers,
  })
  return failure.kind === 'rate_limited' && failure.retryAfterSeconds === undefined
    ? { ...failure, retryAfterSeconds: 1 }
    : failure
}
