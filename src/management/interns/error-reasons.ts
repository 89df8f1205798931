// Intern and vault error bodies carry `metadata.reason` and `metadata.retryable` (api-reference §2). The
// routes' scope rethrows every error with them filled in from the kind table; the root error handler
// then logs and answers it in the usual envelope.
import type { FastifyInstance } from 'fastify'
import { GatewayError, errorKinds } from '../../domain/errors.ts'
import { toGatewayError } from '../../http/error-handler.ts'

export function withReason(error: GatewayError): GatewayError {
  const info = errorKinds[error.kind]
  const metadata = { reason: info.reason, retryable: info.retryable, ...error.metadata }
  return new GatewayError(error.kind, error.message, {
    metadata,
    ...(error.headers === undefined ? {} : { headers: error.headers }),
    cause: error.cause ?? error,
  })
}

export function addErrorReasons(scope: FastifyInstance, bodyLimit: number): void {
  scope.setErrorHandler((error) => {
    throw withReason(toGatewayError(error, bodyLimit))
  })
}
