// Liveness, readiness, Prometheus metrics and the OpenAPI document.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { HttpMetrics } from './metrics.ts'
import { GatewayError } from '../domain/errors.ts'

export interface OpsDeps {
  readonly metrics: HttpMetrics
  readonly ping: () => Promise<void>
}

export function registerOpsRoutes(app: FastifyInstance, deps: OpsDeps): void {
  const open = { auth: 'none' as const }
  app.get(
    '/health',
    {
      config: open,
      schema: {
        tags: ['operations'],
        summary: 'Liveness',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  )

  app.get(
    '/ready',
    {
      config: open,
      schema: {
        tags: ['operations'],
        summary: 'Readiness: the store answers',
        response: { 200: Type.Object({ status: Type.Literal('ready') }) },
      },
    },
    async () => {
      try {
        await deps.ping()
      } catch (error) {
        throw new GatewayError('unavailable', 'The store is unreachable', { cause: error })
      }
      return { status: 'ready' as const }
    },
  )

  app.get(
    '/metrics',
    { config: open, schema: { tags: ['operations'], summary: 'Prometheus metrics (text format)' } },
    async (_request, reply) => {
      reply.type(deps.metrics.registry.contentType)
      return deps.metrics.registry.metrics()
    },
  )

  app.get(
    '/api/v1/openapi.json',
    { config: open, schema: { tags: ['operations'], summary: 'This OpenAPI document' } },
    async () => app.swagger(),
  )
}
