// Private endpoint routes (management key): spec "POST /private-endpoints", "PUT .../pricing" and
// api-reference §7 for the rest. A create with `activate` that fails answers the error envelope with
// `data: {endpoint, validation}` beside it.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { toErrorEnvelope } from '../../domain/errors.ts'
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
  type PricingInput,
} from './schema.ts'
import type { PrivateEndpointService } from './service.ts'

const base = '/api/v1/private-endpoints'

export function registerPrivateEndpointRoutes(app: FastifyInstance, service: PrivateEndpointService): void {
  const tags = ['private-endpoints']
  const config = { auth: 'management' as const }
  const managed = Type.Object({ data: ManagedSchema })
  const full = Type.Object({ data: FullSchema })
  const idOf = (request: { params: unknown }): string => (request.params as { id: string }).id

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
      const outcome = await service.create(
        request.body as CreatePrivateEndpointBody,
        typeof header === 'string' ? header : null,
      )
      if (outcome.kind === 'draft') return reply.code(outcome.status).send({ data: outcome.endpoint })
      if (outcome.kind === 'activated')
        return reply.code(outcome.status).send({ data: { endpoint: outcome.endpoint, validation: outcome.validation } })
      const envelope = toErrorEnvelope(outcome.error)
      return reply
        .code(outcome.error.status)
        .send({ ...envelope, data: { endpoint: outcome.endpoint, validation: outcome.validation } })
    },
  )

  app.get(
    `${base}/:id`,
    { config, schema: { tags, summary: 'Get a private endpoint', params: EndpointParams, response: { 200: full } } },
    async (request) => ({ data: await service.get(idOf(request)) }),
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
      data: await service.update(idOf(request), request.body as UpdatePrivateEndpointBody),
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
      data: await service.remove(idOf(request), (request.query as { draft_only?: boolean }).draft_only === true),
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
      data: await service.validate(idOf(request), (request.body as { workspace_id: string }).workspace_id),
    }),
  )

  app.post(
    `${base}/:id/activate`,
    {
      config,
      schema: { tags, summary: 'Activate a validated draft', params: EndpointParams, response: { 200: managed } },
    },
    async (request) => ({ data: await service.activate(idOf(request)) }),
  )
  app.post(
    `${base}/:id/disable`,
    {
      config,
      schema: { tags, summary: 'Stop routing an active endpoint', params: EndpointParams, response: { 200: managed } },
    },
    async (request) => ({ data: await service.disable(idOf(request)) }),
  )
  app.post(
    `${base}/:id/enable`,
    {
      config,
      schema: { tags, summary: 'Route a disabled endpoint again', params: EndpointParams, response: { 200: managed } },
    },
    async (request) => ({ data: await service.enable(idOf(request)) }),
  )

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
      data: await service.setPricing(idOf(request), (request.body as { pricing: PricingInput }).pricing),
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
      data: await service.setCredential(idOf(request), (request.body as { api_key: string | null }).api_key),
    }),
  )
}
