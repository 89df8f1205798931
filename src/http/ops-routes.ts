// Liveness, readiness, Prometheus metrics and the OpenAPI document.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import type { HttpMetrics } from './metrics.ts'
import { registerMetricsRoute } from './metrics-listener.ts'
import { GatewayError } from '../domain/errors.ts'

export interface OpsDeps {
  readonly metrics: HttpMetrics
  readonly ping: () => Promise<void>
  /** How /metrics is served on this app: behind a management key or open; null = not here (its own port). */
  readonly metricsRoute: { readonly requireManagementKey: boolean } | null
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

  if (deps.metricsRoute !== null)
    registerMetricsRoute(app, deps.metrics.registry, deps.metricsRoute.requireManagementKey)

  app.get(
    '/api/v1/openapi.json',
    { config: open, schema: { tags: ['operations'], summary: 'This OpenAPI document' } },
    async () => app.swagger(),
  )
}
