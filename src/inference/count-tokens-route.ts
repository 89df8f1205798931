// POST /messages/count_tokens (Anthropic's `messages.countTokens`): the input tokens of a Messages
// request, counted with the model's tokenizer (tokens/load-tokenizer.ts: exact for OpenAI models, an
// approximation for others). No upstream is called and nothing is billed; errors are Anthropic-shaped
// like those of POST /messages.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import type { Dialect } from '../dialects/dialect.ts'
import {
  CountTokensRequestSchema,
  decodeCountTokensRequest,
} from '../dialects/anthropic-messages/count-tokens-request.ts'
import { GatewayError } from '../domain/errors.ts'
import { countInputTokens } from './tokens/count-input-tokens.ts'
import { loadTokenizer } from './tokens/load-tokenizer.ts'
import { findModel, type RoutingState } from './routing/plan-route.ts'

const CountTokensResponse = Type.Object({ input_tokens: Type.Integer({ minimum: 0 }) })

export function registerCountTokensRoute(app: FastifyInstance, messages: Dialect, routing: RoutingState): void {
  app.post('/api/v1/messages/count_tokens', {
    config: { auth: 'inference' },
    // The decode is the one validation (its errors Anthropic-shaped); the schema is for the OpenAPI document.
    validatorCompiler: () => (value: unknown) => ({ value }),
    schema: {
      tags: ['inference'],
      summary: 'Count the input tokens of a message (Anthropic Messages format)',
      body: CountTokensRequestSchema,
      response: { 200: CountTokensResponse },
    },
    handler: (request, reply) => countTokens(request, reply, messages, routing),
  })
}

async function countTokens(
  request: FastifyRequest,
  reply: FastifyReply,
  messages: Dialect,
  routing: RoutingState,
): Promise<FastifyReply> {
  try {
    const decoded = decodeCountTokensRequest(request.body)
    requireTextModel(routing, decoded.model, request.principal!.key.workspaceId)
    const tokenizer = await loadTokenizer(decoded.model)
    return reply.send({ input_tokens: countInputTokens(decoded, tokenizer) })
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error
    const encoded = messages.encodeError(error)
    return reply.code(encoded.status).send(encoded.body)
  }
}

function requireTextModel(routing: RoutingState, slug: string, workspaceId: string): void {
  const model = findModel(routing, slug, workspaceId)
  if (model === undefined) {
    throw new GatewayError('not_found', `Model "${slug}" does not exist; GET /api/v1/models lists the available models`)
  }
  if (model.kind !== 'text') {
    throw new GatewayError('invalid_request', `Model "${slug}" is an embedding model; count tokens for a text model`)
  }
}
