// Every failure the gateway reports is a GatewayError with a kind. The table below is the only place
// that decides a kind's HTTP status, retryability and log level; adding a kind without a row fails to
// compile.

export type ErrorKind =
  | 'invalid_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'timeout'
  | 'conflict'
  | 'gone'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'idempotency_key_reused'
  | 'rate_limited'
  | 'client_closed'
  | 'internal'
  | 'upstream_error'
  | 'unavailable'
  | 'upstream_timeout'
  | 'origin_timeout'
  | 'upstream_overloaded'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

export interface ErrorKindInfo {
  readonly status: number
  readonly retryable: boolean
  readonly logLevel: LogLevel
  /** Machine-readable reason carried in `error.metadata.reason` where a route reports one. */
  readonly reason: string
  /** Used when the thrower gives no message. */
  readonly defaultMessage: string
}

export const errorKinds: Readonly<Record<ErrorKind, ErrorKindInfo>> = {
  invalid_request: {
    status: 400,
    retryable: false,
    logLevel: 'info',
    reason: 'invalid_body',
    defaultMessage: 'Invalid request parameters',
  },
  unauthorized: {
    status: 401,
    retryable: false,
    logLevel: 'info',
    reason: 'unauthorized',
    defaultMessage: 'Missing Authentication header',
  },
  payment_required: {
    status: 402,
    retryable: false,
    logLevel: 'info',
    reason: 'payment_required',
    defaultMessage: 'Insufficient credits',
  },
  forbidden: { status: 403, retryable: false, logLevel: 'info', reason: 'forbidden', defaultMessage: 'Forbidden' },
  not_found: {
    status: 404,
    retryable: false,
    logLevel: 'info',
    reason: 'not_found',
    defaultMessage: 'Resource not found',
  },
  method_not_allowed: {
    status: 405,
    retryable: false,
    logLevel: 'info',
    reason: 'method_not_allowed',
    defaultMessage: 'Method not allowed',
  },
  timeout: {
    status: 408,
    retryable: true,
    logLevel: 'warn',
    reason: 'timeout',
    defaultMessage: 'Operation timed out. Please try again later.',
  },
  conflict: {
    status: 409,
    retryable: false,
    logLevel: 'info',
    reason: 'conflict',
    defaultMessage: 'Resource conflict. Please try again later.',
  },
  gone: { status: 410, retryable: false, logLevel: 'info', reason: 'gone', defaultMessage: 'Gone' },
  payload_too_large: {
    status: 413,
    retryable: false,
    logLevel: 'info',
    reason: 'payload_too_large',
    defaultMessage: 'Request payload too large',
  },
  unsupported_media_type: {
    status: 415,
    retryable: false,
    logLevel: 'info',
    reason: 'unsupported_media_type',
    defaultMessage: 'Unsupported media type',
  },
  unprocessable: {
    status: 422,
    retryable: false,
    logLevel: 'info',
    reason: 'invalid_argument',
    defaultMessage: 'Invalid argument',
  },
  idempotency_key_reused: {
    status: 422,
    retryable: false,
    logLevel: 'info',
    reason: 'idempotency_key_reused',
    defaultMessage: 'Idempotency key reused with a different request',
  },
  rate_limited: {
    status: 429,
    retryable: true,
    logLevel: 'info',
    reason: 'rate_limited',
    defaultMessage: 'Rate limit exceeded',
  },
  client_closed: {
    status: 499,
    retryable: false,
    logLevel: 'info',
    reason: 'client_closed_request',
    defaultMessage: 'Request cancelled',
  },
  internal: {
    status: 500,
    retryable: true,
    logLevel: 'error',
    reason: 'internal_error',
    defaultMessage: 'Internal Server Error',
  },
  upstream_error: {
    status: 502,
    retryable: true,
    logLevel: 'warn',
    reason: 'upstream_unavailable',
    defaultMessage: 'Provider returned error',
  },
  unavailable: {
    status: 503,
    retryable: true,
    logLevel: 'warn',
    reason: 'unavailable',
    defaultMessage: 'Service temporarily unavailable',
  },
  upstream_timeout: {
    status: 504,
    retryable: true,
    logLevel: 'warn',
    reason: 'timeout',
    defaultMessage: 'Upstream timed out',
  },
  origin_timeout: {
    status: 524,
    retryable: true,
    logLevel: 'warn',
    reason: 'timeout',
    defaultMessage: 'Request timed out. Please try again later.',
  },
  upstream_overloaded: {
    status: 529,
    retryable: true,
    logLevel: 'warn',
    reason: 'provider_overloaded',
    defaultMessage: 'Provider returned error',
  },
}

export interface GatewayErrorOptions {
  /** Extra fields for `error.metadata` (never secrets). */
  readonly metadata?: Readonly<Record<string, unknown>>
  /** Response headers such as Retry-After. */
  readonly headers?: Readonly<Record<string, string>>
  readonly cause?: unknown
}

export class GatewayError extends Error {
  readonly kind: ErrorKind
  readonly metadata: Readonly<Record<string, unknown>> | undefined
  readonly headers: Readonly<Record<string, string>> | undefined

  constructor(kind: ErrorKind, message?: string, options: GatewayErrorOptions = {}) {
    super(
      message ?? errorKinds[kind].defaultMessage,
      options.cause === undefined ? undefined : { cause: options.cause },
    )
    this.name = 'GatewayError'
    this.kind = kind
    this.metadata = options.metadata
    this.headers = options.headers
  }

  get status(): number {
    return errorKinds[this.kind].status
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError
}

/** The wire envelope of every error body: `{error: {code, message, metadata?}}`. */
export interface ErrorEnvelope {
  error: { code: number; message: string; metadata?: Record<string, unknown> }
}

export function toErrorEnvelope(error: GatewayError): ErrorEnvelope {
  const body: ErrorEnvelope = { error: { code: error.status, message: error.message } }
  if (error.metadata !== undefined) body.error.metadata = { ...error.metadata }
  return body
}
