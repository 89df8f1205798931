// The batch routes, served under /api/v1/batches and /api/beta/batches (what real batch clients call).
// Submission bodies are read as a stream (parse-batch-submission.ts), so this scope replaces the JSON
// body parser with one that hands the raw request stream to the handler. Errors use the slim batch body
// `{error: {code, message}}` (GatewayErrors without metadata).
import type { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { ApiKeyRecord } from '../domain/identity.ts'
import { GatewayError } from '../domain/errors.ts'
import type { BatchService, ListBatchesInput } from './batch-service.ts'

export const batchRoutePrefixes = ['/api/v1/batches', '/api/beta/batches'] as const

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

function idOf(request: FastifyRequest): string {
  return (request.params as { id: string }).id
}

export function registerBatchRoutes(app: FastifyInstance, service: BatchService): void {
  for (const prefix of batchRoutePrefixes) {
    const tags = ['batches']
    const hide = prefix !== '/api/v1/batches'
    void app.register(async (scope) => {
      scope.removeAllContentTypeParsers()
      scope.addContentTypeParser('application/json', (_request, payload, done) => done(null, payload))
      scope.post(
        prefix,
        {
          config: { auth: 'inference' },
          schema: { tags, hide, summary: 'Submit a batch of requests (202, status validating)' },
        },
        async (request, reply) => {
          const body = request.body as Readable | undefined
          if (body === undefined || body === null)
            throw new GatewayError(
              'invalid_request',
              'The body is empty; send a JSON batch with Content-Type: application/json',
            )
          return reply.code(202).send(await service.submit(body, keyOf(request)))
        },
      )
    })
    app.get(
      prefix,
      {
        config: { auth: 'inference' },
        schema: { tags, hide, summary: 'List batches, newest first', querystring: ListQuery },
      },
      async (request) => service.list(request.query as ListBatchesInput, keyOf(request)),
    )
    app.get(
      `${prefix}/:id`,
      {
        config: { auth: 'inference' },
        schema: { tags, hide, summary: 'Get a batch (results in terminal states)', params: IdPath },
      },
      async (request, reply) => {
        const answer = await service.get(idOf(request), keyOf(request))
        return reply.code(answer.status).send(answer.body)
      },
    )
    app.delete(
      `${prefix}/:id`,
      { config: { auth: 'inference' }, schema: { tags, hide, summary: 'Delete a finished batch', params: IdPath } },
      async (request) => service.delete(idOf(request), keyOf(request)),
    )
    app.post(
      `${prefix}/:id/cancel`,
      {
        config: { auth: 'inference' },
        schema: { tags, hide, summary: 'Cancel a batch (-> cancelling -> cancelled)', params: IdPath },
      },
      async (request) => service.cancel(idOf(request), keyOf(request)),
    )
  }
}
