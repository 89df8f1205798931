// POST /api/v1/embeddings: inference keys; the embeddings pipeline answers.
import type { FastifyInstance, FastifySchema } from 'fastify'
import { EmbeddingsRequestSchema } from '../../dialects/embeddings/request-schema.ts'
import type { InferenceDeps } from '../inference-deps.ts'
import { createEmbeddingsRunner, type EmbeddingsSettings } from './run-embeddings.ts'
import { clientCancellation } from '../../http/client-cancellation.ts'
import { cachedEmbeddingsAnswer, cacheRequestHeaders, serializeAsIs } from '../cache-headers-schema.ts'

// Typed as FastifySchema: the answer's status is the runner's (a refusal's 4xx too), not only the documented 200.
const schema: FastifySchema = {
  tags: ['inference'],
  summary: 'Create embeddings for text, token or multimodal inputs',
  body: EmbeddingsRequestSchema,
  headers: cacheRequestHeaders,
  response: { 200: cachedEmbeddingsAnswer },
}

export function registerEmbeddingsRoutes(
  app: FastifyInstance,
  settings: EmbeddingsSettings,
  deps: InferenceDeps,
): void {
  const run = createEmbeddingsRunner(settings, deps)
  app.post('/api/v1/embeddings', {
    config: { auth: 'inference' },
    // The decoder (and cache-choice.ts for the cache headers) is the one validation, and the answer is
    // serialized as the runner built it; the schemas are attached for the OpenAPI document.
    validatorCompiler: () => (value: unknown) => ({ value }),
    serializerCompiler: () => serializeAsIs,
    schema,
    handler: async (request, reply) => {
      const now = deps.clock.now().getTime()
      const answer = await run(
        {
          generationId: deps.generationIds.next(now),
          requestId: request.id,
          key: request.principal!.key,
          startedAt: now,
          headers: request.headers,
          signal: clientCancellation(reply),
        },
        request.body,
      )
      return reply.code(answer.status).headers(answer.headers).send(asBytes(answer.body))
    },
  })
}

/**
 * A 200 answer's JSON text (some 30 KB per 1,536-float vector) as bytes, encoded once: sent as a string,
 * fastify measures its UTF-8 length, and the socket's write measures it again, copies it behind the
 * header text and encodes it into a fresh zeroed buffer.
 */
function asBytes(body: unknown): unknown {
  return typeof body === 'string' ? Buffer.from(body) : body
}
