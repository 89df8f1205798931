// A failed attempt at one endpoint: what kind of failure, whether another endpoint may be tried, and
// the HTTP status to report for the attempt in routing metadata.
import { GatewayError, errorKinds, type ErrorKind } from '../../domain/errors.ts'

export class AttemptError extends GatewayError {
  readonly upstreamStatus: number | null
  readonly retryAfterSeconds: number | undefined

  constructor(
    kind: ErrorKind,
    message: string,
    upstreamStatus: number | null,
    retryAfterSeconds?: number,
    cause?: unknown,
  ) {
    super(
      kind,
      message,
      retryAfterSeconds === undefined ? { cause } : { cause, headers: { 'retry-after': String(retryAfterSeconds) } },
    )
    this.upstreamStatus = upstreamStatus
    this.retryAfterSeconds = retryAfterSeconds
  }

  /** Whether the next endpoint may be tried (retryable kinds, e.g. 429, 5xx, timeouts, resets). */
  get isRetryable(): boolean {
    return errorKinds[this.kind].retryable
  }
}

/** Maps a transport-level failure (no HTTP answer) to an attempt error. */
export function attemptErrorFromTransport(error: unknown, providerSlug: string): AttemptError {
  const code = (error as { code?: string }).code ?? ''
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new AttemptError('upstream_timeout', `Provider ${providerSlug} timed out`, null, undefined, error)
  }
  return new AttemptError(
    'upstream_error',
    `Provider ${providerSlug} is unreachable (${code || (error as Error).message})`,
    null,
    undefined,
    error,
  )
}
