// The batch routes, served under /api/v1/batches and /api/beta/batches (what real batch clients call).
// Submission bodies are read as a stream (parse-batch-submission.ts), so this scope replaces the JSON
// body parser with one that hands the raw request stream to the handler. Errors use the slim batch body
// `{error: {code, message}}` (GatewayErrors without metadata).
import { Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyRecord } from '../domain/identity.ts'
import { GatewayError } from '../domain/errors.ts'
import type { TypedApp } from '../http/typed-app.ts'
import type { BatchService } from './batch-service.ts'
import { BatchSchema } from './batch-schema.ts'

export const batchRoutePrefixes = ['/api/v1/batches', '/api/beta/batches'] as const
type BatchRoutePrefix = (typeof batchRoutePrefixes)[number]

const tags = ['batches']
const config = { auth: 'inference' as const }
const IdPath = Type.Object({ id: Type.String({ minLength: 1, description: 'The batch id returned by submit' }) })
const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1 to 100 (default 20)' })),
  after: Type.Optional(Type.String({ minLength: 1, description: "The previous page's last_id" })),
  status: Type.Optional(
    Type.Union([Type.String(), Type.Array(Type.String())], { description: 'Repeatable status filter' }),
  ),
  created_after: Type.Optional(Type.String({ description: 'Unix seconds or ISO 8601 date / date-time (exclusive)' })),
  created_before: Type.Optional(Type.String({ description: 'Unix seconds or ISO 8601 date / date-time (exclusive)' })),
})

function keyOf(request: FastifyRequest): ApiKeyRecord {
  if (request.principal === null) throw new GatewayError('unauthorized', 'No auth credentials found.')
  return request.principal.key
}

export function registerBatchRoutes(app: TypedApp, service: BatchService): void {
  for (const prefix of batchRoutePrefixes) {
    const hide = prefix !== '/api/v1/batches'
    registerSubmitRoute(app, service, prefix, hide)
    registerBatchReadRoutes(app, service, prefix, hide)
  }
}

function registerSubmitRoute(app: TypedApp, service: BatchService, prefix: BatchRoutePrefix, hide: boolean): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('application/json', (_request, payload, done) => done(null, payload))
    scope.post(
      prefix,
      { config, schema: { tags, hide, summary: 'Submit a batch of requests (202, status validating)' } },
      async (request, reply) => {
        // The JSON parser above hands over the request stream; without a body there is nothing to parse.
        if (!(request.body instanceof Readable))
          throw new GatewayError(
            'invalid_request',
            'The body is empty; send a JSON batch with Content-Type: application/json',
          )
        return reply.code(202).send(await service.submit(request.body, keyOf(request)))
      },
    )
  })
}

function registerBatchReadRoutes(app: TypedApp, service: BatchService, prefix: BatchRoutePrefix, hide: boolean): void {
  app.get(
    prefix,
    { config, schema: { tags, hide, summary: 'List batches, newest first', querystring: ListQuery } },
    async (request) => service.list(request.query, keyOf(request)),
  )
  app.get(
    `${prefix}/:id`,
    {
      config,
      // The batch is serialized as built (result bodies are the endpoints' own answers); the schema documents it.
      serializerCompiler: () => (data: unknown) => JSON.stringify(data),
      schema: {
        tags,
        hide,
        summary: 'Get a batch (results in terminal states)',
        params: IdPath,
        response: {
          200: BatchSchema,
          402: { ...BatchSchema, description: 'The finalized cost exceeds the balance: the batch with results null' },
          '4XX': { description: 'The request was refused', $ref: 'ErrorEnvelope#' },
        },
      },
    },
    async (request, reply) => {
      const answer = await service.get(request.params.id, keyOf(request))
      return reply.code(answer.status).send(answer.body)
    },
  )
  app.delete(
    `${prefix}/:id`,
    { config, schema: { tags, hide, summary: 'Delete a finished batch', params: IdPath } },
    async (request) => service.delete(request.params.id, keyOf(request)),
  )
  app.post(
    `${prefix}/:id/cancel`,
    { config, schema: { tags, hide, summary: 'Cancel a batch (-> cancelling -> cancelled)', params: IdPath } },
    async (request) => service.cancel(request.params.id, keyOf(request)),
  )
}
