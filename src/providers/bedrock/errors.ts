// Bedrock errors: the `x-amzn-errortype` header (`ThrottlingException:http://...`) or the body's
// `__type` names the exception; the body's `message` (or `Message`) says why. Throttling is a 429
// with the upstream's retry delay, validation a 400, access denied the gateway-credential message.
import type { ErrorKind } from '../../domain/errors.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { ResponseHeaders, UpstreamFailure } from '../provider-adapter.ts'
import { lookupKind, parseErrorBody, upstreamFailure } from '../upstream-failure.ts'

const exceptionKinds: Readonly<Record<string, ErrorKind>> = {
  ThrottlingException: 'rate_limited',
  ServiceQuotaExceededException: 'rate_limited',
  ValidationException: 'invalid_request',
  ModelErrorException: 'upstream_error',
  ModelNotReadyException: 'upstream_error',
  ModelTimeoutException: 'upstream_timeout',
  ModelStreamErrorException: 'upstream_error',
  InternalServerException: 'upstream_error',
  ServiceUnavailableException: 'upstream_overloaded',
  ResourceNotFoundException: 'upstream_error',
  AccessDeniedException: 'upstream_error',
  UnrecognizedClientException: 'upstream_error',
}

/** `ThrottlingException:http://internal.amazon.com/coral/...` or `throttlingException` -> `ThrottlingException`. */
function exceptionName(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw === '') return undefined
  const name = raw.split(':')[0]!.split('#').at(-1)!
  return name.charAt(0).toUpperCase() + name.slice(1)
}

function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name]
  return typeof value === 'string' ? value : value?.[0]
}

interface BedrockErrorBody {
  readonly message?: unknown
  readonly Message?: unknown
  readonly __type?: unknown
}

export function classifyBedrockError(status: number, body: string, headers: ResponseHeaders): UpstreamFailure {
  const parsed = parseErrorBody(body) as BedrockErrorBody | undefined
  const name = exceptionName(headerValue(headers, 'x-amzn-errortype')) ?? exceptionName(parsed?.__type)
  const message = parsed?.message ?? parsed?.Message
  const failure = upstreamFailure({
    provider: 'Bedrock',
    status: name === 'AccessDeniedException' || name === 'UnrecognizedClientException' ? 403 : status,
    typeKind: lookupKind(exceptionKinds, name),
    upstreamMessage: typeof message === 'string' ? message : undefined,
    headers,
  })
  return failure.kind === 'rate_limited' && failure.retryAfterSeconds === undefined
    ? { ...failure, retryAfterSeconds: 1 }
    : failure
}

/** An exception frame mid-stream (`throttlingException`, `modelStreamErrorException`, ...). */
export function bedrockStreamError(type: string, data: string): StreamEvent {
  const parsed = parseErrorBody(data) as BedrockErrorBody | undefined
  const message = parsed?.message ?? parsed?.Message
  return {
    type: 'stream-error',
    kind: lookupKind(exceptionKinds, exceptionName(type)) ?? 'upstream_error',
    message: `Bedrock: ${typeof message === 'string' ? message : type}`,
  }
}
