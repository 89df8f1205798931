// One boundary for every failure: GatewayErrors keep their kind, framework errors (malformed JSON, body
// too large, validation, unknown route, wrong method) are given one, anything else becomes `internal`.
// Each error is logged once, here, at its kind's level, and answered in its route family's shape
// (error-shape.ts): the spec's envelope, or Anthropic's on /messages.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { GatewayError, errorKinds, isGatewayError, type ErrorKind } from '../domain/errors.ts'
import { errorBodyFor } from './error-shape.ts'
import { formatSchemaErrors, type SchemaError } from '../config/format-schema-errors.ts'
import type { RouteTable } from './route-table.ts'
import { suggestApiPath } from './suggest-api-path.ts'
import { isConnectionFailure } from '../store/connection-failure.ts'

const kindByStatus = new Map<number, ErrorKind>()
for (const [kind, info] of Object.entries(errorKinds) as [ErrorKind, (typeof errorKinds)[ErrorKind]][]) {
  if (!kindByStatus.has(info.status)) kindByStatus.set(info.status, kind)
}

const frameworkKinds: Readonly<Record<string, ErrorKind>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_request',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
}

export function toGatewayError(error: unknown, bodyLimit: number): GatewayError {
  if (isGatewayError(error)) return error
  const framework = error as Partial<FastifyError> & { validation?: SchemaError[]; validationContext?: string }
  if (Array.isArray(framework.validation)) {
    const problems = formatSchemaErrors(framework.validation, framework.validationContext ?? '')
    return new GatewayError('invalid_request', `Invalid request parameters: ${problems.join('; ')}`)
  }
  const code = framework.code ?? ''
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return new GatewayError('payload_too_large', `Request payload too large: the limit is ${bodyLimit} bytes`)
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new GatewayError('unsupported_media_type', 'Unsupported Content-Type: send the body as application/json')
  }
  if (error instanceof SyntaxError || code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new GatewayError('invalid_request', `Malformed JSON body: ${(error as Error).message}`)
  }
  const mapped =
    frameworkKinds[code] ??
    (typeof framework.statusCode === 'number' && framework.statusCode < 500
      ? kindByStatus.get(framework.statusCode)
      : undefined)
  if (mapped !== undefined) return new GatewayError(mapped, framework.message)
  if (isConnectionFailure(error)) {
    return new GatewayError(
      'unavailable',
      'The store is unreachable, so the request was not carried out; retry shortly',
      { cause: error, headers: { 'retry-after': '1' } },
    )
  }
  return new GatewayError('internal', undefined, { cause: error })
}

export function registerErrorHandling(app: FastifyInstance, routes: RouteTable, bodyLimit: number): void {
  app.setErrorHandler((error, request, reply) => {
    const gatewayError = toGatewayError(error, bodyLimit)
    logError(request, gatewayError, error)
    return sendError(reply, gatewayError)
  })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const allowed = routes.methodsFor(path)
    const error =
      allowed.length > 0
        ? new GatewayError(
            'method_not_allowed',
            `Method ${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
            {
              headers: { allow: allowed.join(', ') },
            },
          )
        : new GatewayError('not_found', notFoundMessage(request.method, path, routes))
    return sendError(reply, error)
  })
}

function notFoundMessage(method: string, path: string, routes: RouteTable): string {
  const hint = suggestApiPath(path, (candidate) => routes.methodsFor(candidate).length > 0)
  return hint === null ? `No route for ${method} ${path}` : `No route for ${method} ${path}. ${hint}`
}

export function sendError(reply: FastifyReply, error: GatewayError): FastifyReply {
  if (error.headers !== undefined) reply.headers(error.headers)
  return reply.code(error.status).type('application/json; charset=utf-8').send(errorBodyFor(reply.request.url, error))
}

function logError(request: FastifyRequest, error: GatewayError, original: unknown): void {
  const level = errorKinds[error.kind].logLevel
  if (level === 'error') request.log.error({ err: original, kind: error.kind }, error.message)
  else if (level === 'warn') request.log.warn({ kind: error.kind, status: error.status }, error.message)
  else request.log.debug({ kind: error.kind, status: error.status }, error.message)
}
