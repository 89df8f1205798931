// buildApp(deps): the HTTP application. Registers the framework plugins and every route module; does no
// I/O at import time and reads nothing global.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { randomUUID } from 'node:crypto'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { Config } from './config/config.ts'
import { deferredRequestLoggers } from './http/deferred-request-logger.ts'
import { boundedValidatorCompiler } from './http/bounded-validator-compiler.ts'
import { RouteTable } from './http/route-table.ts'
import { withSchemaTypes, type TypedApp } from './http/typed-app.ts'
import { registerErrorHandling } from './http/error-handler.ts'
import { createAuthenticateHook } from './http/authenticate.ts'
import { refuseUnstorableBodyIdentifiers, refuseUnstorableParameters } from './http/refuse-unstorable-identifiers.ts'
import { registerRequestObservers, type HttpMetrics } from './http/metrics.ts'
import { registerOpsRoutes } from './http/ops-routes.ts'
import { buildMetricsListener } from './http/metrics-listener.ts'
import { registerConsoleRoutes, type ConsoleAssets } from './http/console-routes.ts'
import { createRateLimitHook } from './rate-limits/rate-limit-hook.ts'
import type { RateLimitPolicy } from './rate-limits/rate-limit-policy.ts'
import { ErrorEnvelopeSchema } from './http/error-schema.ts'
import { AnthropicErrorSchema } from './http/error-shape.ts'
import { describeOperation } from './http/openapi-operation.ts'
import type { Clock } from './domain/clock.ts'
import type { KeyCache } from './identity/key-cache.ts'
import { answerWhenApplied } from './http/answer-when-applied.ts'
import { registerDeprecatedPaymentsRoute } from './management/payments/routes.ts'
import { registerOrganizationRoutes } from './management/organization/routes.ts'
import type { OrganizationService } from './management/organization/service.ts'
import { registerCatalogRoutes } from './management/catalog/routes.ts'
import type { Catalog } from './domain/catalog.ts'
import { registerGenerationRoutes } from './management/generations/routes.ts'
import { registerActivityRoutes } from './management/activity/routes.ts'
import { registerEndpointHealthRoutes } from './management/endpoint-health/routes.ts'
import type { EndpointHealth } from './domain/endpoint-health.ts'
import type { GenerationStore } from './generations/generation-store.ts'
import { registerKeysRoutes } from './management/keys/routes.ts'
import type { KeysService } from './management/keys/service.ts'
import { registerCreditsRoutes } from './management/credits/routes.ts'
import { registerByokRoutes } from './management/byok/routes.ts'
import type { CreditsService } from './management/credits/service.ts'
import { registerWorkspaceRoutes } from './management/workspaces/routes.ts'
import { registerWorkspaceBudgetRoutes } from './management/workspaces/budget-routes.ts'
import type { WorkspaceService } from './management/workspaces/service.ts'
import type { BudgetService } from './management/workspaces/budget-service.ts'
import { registerGuardrailRoutes } from './management/guardrails/routes.ts'
import { registerGuardrailAssignmentRoutes } from './management/guardrails/assignment-routes.ts'
import type { GuardrailService } from './management/guardrails/service.ts'
import type { AssignmentService } from './management/guardrails/assignment-service.ts'
import { registerEndUsersRoutes } from './management/end-users/routes.ts'
import type { EndUsersService } from './management/end-users/service.ts'
import { registerPresetsRoutes } from './management/presets/routes.ts'
import { registerRateLimitRoutes } from './management/rate-limits/routes.ts'
import type { RateLimitRuleService } from './management/rate-limits/service.ts'
import type { PresetsService } from './management/presets/service.ts'
import { answerFrameworkError, maxPathParamLength } from './http/framework-errors.ts'
import './http/route-auth.ts'
import type { Dialects } from './dialects/dialect.ts'
import type { InferenceDeps } from './inference/inference-deps.ts'
import { registerInferenceRoutes } from './inference/inference-routes.ts'
import { registerEmbeddingsRoutes } from './inference/embeddings/embeddings-routes.ts'
import { registerSystemOneRoutes } from './inference/systemone/systemone-routes.ts'
import { registerInternAndVaultRoutes, type InternAndVault } from './management/interns/intern-and-vault.ts'
import { registerInternChatRoutes, type InternChatDeps } from './interns/intern-chat-routes.ts'
import { rewriteInternHostUrl } from './interns/intern-host-route.ts'
import { registerObservabilityRoutes } from './management/observability/routes.ts'
import type { ObservabilityService } from './management/observability/service.ts'
import { registerPrivateEndpointRoutes } from './management/private-endpoints/routes.ts'
import type { PrivateEndpointService } from './management/private-endpoints/service.ts'
import { registerBatchRoutes } from './batches/batch-routes.ts'
import type { BatchService } from './batches/batch-service.ts'

export interface AppDeps {
  /** A running intern's id by its hostname, for chat at `<name>.<interns domain>`. */
  readonly internIdForHost?: (hostname: string) => string | undefined
  readonly inference: { readonly dialects: Dialects; readonly deps: InferenceDeps }
  readonly config: Config
  readonly logger: FastifyBaseLogger
  readonly clock: Clock
  readonly keyCache: KeyCache
  readonly metrics: HttpMetrics
  readonly ping: () => Promise<void>
  readonly onKeyUsed?: (hash: string) => void
  /** Resolves once this instance's caches hold every change announced so far (writes answer after it). */
  readonly changesApplied?: () => Promise<void>
  /** Request budgets per key, organization and management (after authentication). */
  readonly rateLimits?: RateLimitPolicy
  readonly catalog: Catalog
  /** The live health of every endpoint as this instance sees it. */
  readonly endpointHealth: () => readonly EndpointHealth[]
  readonly generations: GenerationStore
  /** The web console served at /console. */
  readonly consoleAssets: ConsoleAssets
  readonly services: {
    readonly organization: OrganizationService
    readonly keys: KeysService
    readonly credits: CreditsService
    readonly internAndVault: InternAndVault
    /** Chat with running interns (absent: the route is not registered). */
    readonly internChat?: InternChatDeps
    readonly workspaces: WorkspaceService
    readonly workspaceBudgets: BudgetService
    readonly guardrails: GuardrailService
    readonly guardrailAssignments: AssignmentService
    readonly endUsers: EndUsersService
    readonly presets: PresetsService
    readonly rateLimits: RateLimitRuleService
    readonly observability: ObservabilityService
    readonly privateEndpoints: PrivateEndpointService
    readonly batches: BatchService
  }
}

export interface App {
  readonly fastify: FastifyInstance
  readonly routes: RouteTable
  /** The listener of `metrics.port`, serving only /metrics (not yet listening); null when /metrics is on the main port. */
  readonly metricsListener: FastifyInstance | null
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/

export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    rewriteUrl: (request) => {
      const url = request.url ?? '/'
      return deps.internIdForHost === undefined
        ? url
        : rewriteInternHostUrl(url, request.headers.host, deps.internIdForHost)
    },
    loggerInstance: deps.logger,
    childLoggerFactory: deferredRequestLoggers,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.server.body_limit_bytes,
    trustProxy: deps.config.server.trust_proxy,
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id']
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID()
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxPathParamLength },
    return503OnClosing: true,
    frameworkErrors: answerFrameworkError,
  })
  app.setValidatorCompiler(boundedValidatorCompiler)
  app.removeContentTypeParser('text/plain')
  app.decorateRequest('principal', null)

  const routes = new RouteTable()
  app.addHook('onRoute', (route) => routes.add(route))
  if (deps.changesApplied !== undefined) answerWhenApplied(app, deps.changesApplied)
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })
  app.addHook('onRequest', refuseUnstorableParameters)
  app.addHook('preValidation', refuseUnstorableBodyIdentifiers)
  app.addHook(
    'onRequest',
    createAuthenticateHook({ keyCache: deps.keyCache, clock: deps.clock, onKeyUsed: deps.onKeyUsed }),
  )
  if (deps.rateLimits !== undefined) app.addHook('onRequest', createRateLimitHook(deps.rateLimits))
  registerErrorHandling(app, routes, deps.config.server.body_limit_bytes)
  registerRequestObservers(app, deps.metrics)

  await registerOpenApiDocument(app)

  const { require_management_key: requireManagementKey, port: metricsPort } = deps.config.metrics
  registerOpsRoutes(app, {
    metrics: deps.metrics,
    ping: deps.ping,
    metricsRoute: metricsPort === null ? { requireManagementKey } : null,
  })
  registerConsoleRoutes(app, deps.consoleAssets)
  registerRouteModules(withSchemaTypes(app), deps)
  return { fastify: app, routes, metricsListener: metricsListenerOf(deps) }
}

/** The listener of `metrics.port`, or null when /metrics is served on the main port. */
function metricsListenerOf(deps: AppDeps): FastifyInstance | null {
  const { require_management_key: requireManagementKey, port } = deps.config.metrics
  if (port === null) return null
  return buildMetricsListener({
    registry: deps.metrics.registry,
    requireManagementKey,
    keyCache: deps.keyCache,
    clock: deps.clock,
    logger: deps.logger,
  })
}

/** The OpenAPI document at /api/v1/openapi.json (its operations described by describeOperation) and /docs. */
async function registerOpenApiDocument(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Switchyard', version: '1', description: 'OpenRouter-compatible LLM gateway and management API' },
      // Relative: the document is served by the gateway it describes; every path carries its base (/api/v1).
      servers: [{ url: '/', description: 'This gateway' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: describeOperation,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) },
  })
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '/api/v1/openapi.json' } })
  app.addSchema(ErrorEnvelopeSchema)
  app.addSchema(AnthropicErrorSchema)
}

function registerRouteModules(app: TypedApp, deps: AppDeps): void {
  registerDeprecatedPaymentsRoute(app)
  registerOrganizationRoutes(app, deps.services.organization)
  registerCatalogRoutes(app, deps.catalog)
  registerGenerationRoutes(app, deps.generations, (hash) => deps.keyCache.lookup(hash))
  registerActivityRoutes(app, deps.generations, deps.clock)
  registerEndpointHealthRoutes(app, deps.endpointHealth)
  registerKeysRoutes(app, deps.services.keys)
  registerCreditsRoutes(app, deps.services.credits)
  registerInternAndVaultRoutes(app, deps.services.internAndVault)
  if (deps.services.internChat !== undefined) registerInternChatRoutes(app, deps.services.internChat)
  registerWorkspaceRoutes(app, deps.services.workspaces)
  registerWorkspaceBudgetRoutes(app, deps.services.workspaceBudgets)
  registerByokRoutes(app, deps.services.workspaces)
  registerGuardrailRoutes(app, deps.services.guardrails)
  registerGuardrailAssignmentRoutes(app, deps.services.guardrailAssignments)
  registerEndUsersRoutes(app, deps.services.endUsers)
  registerPresetsRoutes(app, deps.services.presets)
  registerRateLimitRoutes(app, deps.services.rateLimits)
  registerObservabilityRoutes(app, deps.services.observability)
  registerPrivateEndpointRoutes(app, deps.services.privateEndpoints)
  registerInferenceRoutes(app, deps.inference.dialects, deps.inference.deps)
  registerEmbeddingsRoutes(app, { maxInputChars: deps.config.embeddings.max_input_chars }, deps.inference.deps)
  registerSystemOneRoutes(
    app,
    { namespace: deps.config.systemone.namespace },
    deps.inference.dialects,
    deps.inference.deps,
  )
  registerBatchRoutes(app, deps.services.batches)
}
