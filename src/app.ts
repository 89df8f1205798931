// buildApp(deps): the HTTP application. Registers the framework plugins and every route module; does no
// I/O at import time and reads nothing global.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { randomUUID } from 'node:crypto'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox'
import type { Config } from './config/config.ts'
import { RouteTable } from './http/route-table.ts'
import { registerErrorHandling } from './http/error-handler.ts'
import { createAuthenticateHook } from './http/authenticate.ts'
import { registerRequestObservers, type HttpMetrics } from './http/metrics.ts'
import { registerOpsRoutes } from './http/ops-routes.ts'
import { ErrorEnvelopeSchema } from './http/error-schema.ts'
import type { Clock } from './domain/clock.ts'
import type { KeyCache } from './identity/key-cache.ts'
import { registerDeprecatedPaymentsRoute } from './management/payments/routes.ts'
import { registerOrganizationRoutes } from './management/organization/routes.ts'
import type { OrganizationService } from './management/organization/service.ts'
import './http/route-auth.ts'
import { registerObservabilityRoutes } from './management/observability/routes.ts'
import type { ObservabilityService } from './management/observability/service.ts'

export interface AppDeps {
  readonly config: Config
  readonly logger: FastifyBaseLogger
  readonly clock: Clock
  readonly keyCache: KeyCache
  readonly metrics: HttpMetrics
  readonly ping: () => Promise<void>
  readonly onKeyUsed?: (hash: string) => void
  readonly services: {
    readonly organization: OrganizationService
    readonly observability: ObservabilityService
  }
}

export interface App {
  readonly fastify: FastifyInstance
  readonly routes: RouteTable
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/

export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    loggerInstance: deps.logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.server.body_limit_bytes,
    trustProxy: deps.config.server.trust_proxy,
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id']
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID()
    },
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
  })
  app.setValidatorCompiler(TypeBoxValidatorCompiler)
  app.removeContentTypeParser('text/plain')
  app.decorateRequest('principal', null)

  const routes = new RouteTable()
  app.addHook('onRoute', (route) => routes.add(route))
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  app.addHook('onRequest', createAuthenticateHook({ keyCache: deps.keyCache, clock: deps.clock, onKeyUsed: deps.onKeyUsed }))
  registerErrorHandling(app, routes, deps.config.server.body_limit_bytes)
  registerRequestObservers(app, deps.metrics)

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Switchyard', version: '1', description: 'OpenRouter-compatible LLM gateway and management API' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  })
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/api/v1/openapi.json' } })
  app.addSchema(ErrorEnvelopeSchema)

  registerOpsRoutes(app, { metrics: deps.metrics, ping: deps.ping })
  registerDeprecatedPaymentsRoute(app)
  registerOrganizationRoutes(app, deps.services.organization)
  registerObservabilityRoutes(app, deps.services.observability)
  return { fastify: app, routes }
}
