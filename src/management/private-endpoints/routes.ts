// Private endpoint routes (management key): spec "POST /private-endpoints", "PUT .../pricing" and
// api-reference §7 for the rest. A create with `activate` that fails answers the error envelope with
// `data: {endpoint, validation}` beside it.
import { Type } from 'typebox'
import { toErrorEnvelope } from '../../domain/errors.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import {
  CreatePrivateEndpointBody,
  CredentialBody,
  DeleteQuery,
  EndpointParams,
  FullSchema,
  ManagedSchema,
  PricingBody,
  SummarySchema,
  UpdatePrivateEndpointBody,
  ValidateBody,
  ValidationSchema,
} from './schema.ts'
import type { PrivateEndpointService } from './service.ts'

const base = '/api/v1/private-endpoints'
const tags = ['private-endpoints']
const config = { auth: 'management' as const }
const managed = Type.Object({ data: ManagedSchema })
const full = Type.Object({ data: FullSchema })

export function registerPrivateEndpointRoutes(app: TypedApp, service: PrivateEndpointService): void {
  registerCollectionRoutes(app, service)
  registerEndpointRoutes(app, service)
  registerStatusActions(app, service)
  registerEndpointSettings(app, service)
}

function registerCollectionRoutes(app: TypedApp, service: PrivateEndpointService): void {
  app.get(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'List private endpoints (drafts included)',
        response: { 200: Type.Object({ data: Type.Array(SummarySchema) }) },
      },
    },
    async () => service.list(),
  )

  app.post(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'Create a private endpoint (optionally validate and activate it)',
        body: CreatePrivateEndpointBody,
      },
    },
    async (request, reply) => {
      const header = request.headers['idempotency-key']
      const outcome = await service.create(request.body, typeof header === 'string' ? header : null)
      if (outcome.kind === 'draft') return reply.code(outcome.status).send({ data: outcome.endpoint })
      if (outcome.kind === 'activated')
        return reply.code(outcome.status).send({ data: { endpoint: outcome.endpoint, validation: outcome.validation } })
      const envelope = toErrorEnvelope(outcome.error)
      return reply
        .code(outcome.error.status)
        .send({ ...envelope, data: { endpoint: outcome.endpoint, validation: outcome.validation } })
    },
  )
}

function registerEndpointRoutes(app: TypedApp, service: PrivateEndpointService): void {
  app.get(
    `${base}/:id`,
    { config, schema: { tags, summary: 'Get a private endpoint', params: EndpointParams, response: { 200: full } } },
    async (request) => ({ data: await service.get(request.params.id) }),
  )

  app.patch(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Update a draft private endpoint',
        params: EndpointParams,
        body: UpdatePrivateEndpointBody,
        response: { 200: full },
      },
    },
    async (request) => ({
      data: await service.update(request.params.id, request.body),
    }),
  )

  app.delete(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete a private endpoint',
        params: EndpointParams,
        querystring: DeleteQuery,
        response: { 200: Type.Object({ data: Type.Object({ id: Type.String() }) }) },
      },
    },
    async (request) => ({
      data: await service.remove(request.params.id, request.query.draft_only === true),
    }),
  )

  app.post(
    `${base}/:id/validate`,
    {
      config,
      schema: {
        tags,
        summary: 'Run the checks against the endpoint',
        params: EndpointParams,
        body: ValidateBody,
        response: { 200: Type.Object({ data: ValidationSchema }) },
      },
    },
    async (request) => ({
      data: await service.validate(request.params.id, request.body.workspace_id),
    }),
  )
}

/** Activate, disable and enable move an endpoint between states and take no body. */
function registerStatusActions(app: TypedApp, service: PrivateEndpointService): void {
  app.post(
    `${base}/:id/activate`,
    {
      config,
      schema: { tags, summary: 'Activate a validated draft', params: EndpointParams, response: { 200: managed } },
    },
    async (request) => ({ data: await service.activate(request.params.id) }),
  )
  app.post(
    `${base}/:id/disable`,
    {
      config,
      schema: { tags, summary: 'Stop routing an active endpoint', params: EndpointParams, response: { 200: managed } },
    },
    async (request) => ({ data: await service.disable(request.params.id) }),
  )
  app.post(
    `${base}/:id/enable`,
    {
      config,
      schema: { tags, summary: 'Route a disabled endpoint again', params: EndpointParams, response: { 200: managed } },
    },
    async (request) => ({ data: await service.enable(request.params.id) }),
  )
}

function registerEndpointSettings(app: TypedApp, service: PrivateEndpointService): void {
  app.put(
    `${base}/:id/pricing`,
    {
      config,
      schema: {
        tags,
        summary: 'Set the negotiated prices',
        params: EndpointParams,
        body: PricingBody,
        response: { 200: full },
      },
    },
    async (request) => ({
      data: await service.setPricing(request.params.id, request.body.pricing),
    }),
  )

  app.put(
    `${base}/:id/credential`,
    {
      config,
      schema: {
        tags,
        summary: 'Set or clear the credential sent to the endpoint',
        params: EndpointParams,
        body: CredentialBody,
        response: { 200: Type.Object({ data: Type.Object({ id: Type.String(), has_credential: Type.Boolean() }) }) },
      },
    },
    async (request) => ({
      data: await service.setCredential(request.params.id, request.body.api_key),
    }),
  )
}
