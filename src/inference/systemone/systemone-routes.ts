// POST /api/v1/systemone and its alias POST /api/alpha/decisions: typed questions answered by a model.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Dialects } from '../../dialects/dialect.ts'
import type { InferenceDeps } from '../inference-deps.ts'
import { runDecisions, type DecisionSettings } from './run-decisions.ts'
import { clientCancellation } from '../../http/client-cancellation.ts'

const paths = [
  {
    url: '/api/v1/systemone',
    summary: 'Answer typed questions (noul, choice, score) about a state with probabilities',
  },
  { url: '/api/alpha/decisions', summary: 'Alias of POST /api/v1/systemone' },
]

export function registerSystemOneRoutes(
  app: FastifyInstance,
  settings: DecisionSettings,
  dialects: Dialects,
  deps: InferenceDeps,
): void {
  for (const { url, summary } of paths) {
    app.post(url, {
      config: { auth: 'inference' },
      schema: { tags: ['inference'], summary },
      handler: (request, reply) => handle(request, reply, settings, dialects, deps),
    })
  }
}

async function handle(
  request: FastifyRequest,
  reply: FastifyReply,
  settings: DecisionSettings,
  dialects: Dialects,
  deps: InferenceDeps,
): Promise<FastifyReply> {
  const answer = await runDecisions(
    {
      id: deps.generationIds.next(deps.clock.now().getTime()),
      key: request.principal!.key,
      headers: request.headers,
      signal: clientCancellation(reply),
    },
    request.body,
    settings,
    dialects,
    deps,
  )
  return reply.code(answer.status).headers(answer.headers).send(answer.body)
}
