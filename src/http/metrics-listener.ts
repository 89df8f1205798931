// GET /metrics (Prometheus text format), on the main app or, with `metrics.port` set, on a listener of
// its own that serves nothing else; either way behind a management key when
// `metrics.require_management_key` is true.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { Registry } from 'prom-client'
import type { Clock } from '../domain/clock.ts'
import type { KeyCache } from '../identity/key-cache.ts'
import { createAuthenticateHook } from './authenticate.ts'
import { registerErrorHandling } from './error-handler.ts'
import { RouteTable } from './route-table.ts'

export function registerMetricsRoute(app: FastifyInstance, registry: Registry, requireManagementKey: boolean): void {
  const summary = requireManagementKey
    ? 'Prometheus metrics (text format); takes a management key (metrics.require_management_key)'
    : 'Prometheus metrics (text format)'
  app.get(
    '/metrics',
    { config: { auth: requireManagementKey ? 'management' : 'none' }, schema: { tags: ['operations'], summary } },
    async (_request, reply) => {
      reply.type(registry.contentType)
      return registry.metrics()
    },
  )
}

export interface MetricsListenerDeps {
  readonly registry: Registry
  readonly requireManagementKey: boolean
  readonly keyCache: KeyCache
  readonly clock: Clock
  readonly logger: FastifyBaseLogger
}

/** The separate metrics listener (`metrics.port`): /metrics only, errors in the spec's envelope. */
export function buildMetricsListener(deps: MetricsListenerDeps): FastifyInstance {
  const app = Fastify({ loggerInstance: deps.logger, disableRequestLogging: true, return503OnClosing: true })
  const routes = new RouteTable()
  app.addHook('onRoute', (route) => routes.add(route))
  app.decorateRequest('principal', null)
  app.addHook('onRequest', createAuthenticateHook({ keyCache: deps.keyCache, clock: deps.clock }))
  registerErrorHandling(app, routes, 1024)
  registerMetricsRoute(app, deps.registry, deps.requireManagementKey)
  return app
}
