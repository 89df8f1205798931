// POST /responses, /chat/completions and /messages: one pipeline, three client formats; and
// POST /messages/count_tokens beside them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Dialect, DialectName, Dialects } from '../dialects/dialect.ts'
import type { InferenceDeps } from './inference-deps.ts'
import { wantsRoutingMetadata } from './pipeline/inference-request.ts'
import { runInference } from './pipeline/run-inference.ts'
import { fastifyResponder } from './pipeline/responder.ts'
import { clientCancellation } from '../http/client-cancellation.ts'
import { registerCountTokensRoute } from './count-tokens-route.ts'
import { cachedAnswer, cacheRequestHeaders, serializeAsIs } from './cache-headers-schema.ts'

const paths: Readonly<Record<DialectName, { url: string; summary: string }>> = {
  'openai-responses': {
    url: '/api/v1/responses',
    summary: 'Create a response (OpenAI Responses format), streaming or not',
  },
  'openai-chat': {
    url: '/api/v1/chat/completions',
    summary: 'Create a chat completion (OpenAI Chat Completions format)',
  },
  'anthropic-messages': { url: '/api/v1/messages', summary: 'Create a message (Anthropic Messages format)' },
}

export function registerInferenceRoutes(app: FastifyInstance, dialects: Dialects, deps: InferenceDeps): void {
  for (const dialect of Object.values(dialects)) {
    const { url, summary } = paths[dialect.name]
    app.post(url, {
      config: { auth: 'inference' },
      // The dialect's decode (and cache-choice.ts for the cache headers) is the one validation, and the
      // answer is serialized as the pipeline built it; the schemas are attached for the OpenAPI document.
      validatorCompiler: () => (value: unknown) => ({ value }),
      serializerCompiler: () => serializeAsIs,
      schema: {
        tags: ['inference'],
        summary,
        body: dialect.requestSchema,
        headers: cacheRequestHeaders,
        response: { 200: cachedAnswer },
      },
      handler: (request, reply) => handle(dialect, request, reply, deps),
    })
  }
  registerCountTokensRoute(app, dialects['anthropic-messages'], deps.routing)
}

async function handle(
  dialect: Dialect,
  request: FastifyRequest,
  reply: FastifyReply,
  deps: InferenceDeps,
): Promise<FastifyReply> {
  const signal = clientCancellation(reply)
  const now = deps.clock.now().getTime()
  await runInference(
    {
      generationId: deps.generationIds.next(now),
      requestId: request.id,
      key: request.principal!.key,
      dialect,
      startedAt: now,
      headers: request.headers,
      signal,
      wantsMetadata: wantsRoutingMetadata(request.headers),
    },
    request.body,
    fastifyResponder(reply),
    deps,
  )
  return reply
}
