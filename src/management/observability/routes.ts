import { Type } from 'typebox'
import { offsetPage, TotalCountList } from '../../http/pagination.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import {
  CreateDestinationBody,
  DestinationParams,
  DestinationSchema,
  DestinationTypeSchema,
  ListDestinationsQuery,
  TestEventSchema,
  UpdateDestinationBody,
} from './schema.ts'
import { describeDestinationTypes } from './destination-type-wire.ts'
import type { ObservabilityService } from './service.ts'

const base = '/api/v1/observability/destinations'
const tags = ['observability']
const config = { auth: 'management' as const }
const one = Type.Object({ data: DestinationSchema })

export function registerObservabilityRoutes(app: TypedApp, service: ObservabilityService): void {
  registerCollectionRoutes(app, service)
  registerDestinationRoutes(app, service)
  registerTypesAndTestEventRoutes(app, service)
}

/** What a destination's config may hold (per type), and trying a destination out. */
function registerTypesAndTestEventRoutes(app: TypedApp, service: ObservabilityService): void {
  const types = { data: describeDestinationTypes() }
  app.get(
    '/api/v1/observability/destination-types',
    {
      config,
      schema: {
        tags,
        summary: 'The destination types, each with its config fields and whether it is deliverable',
        response: { 200: Type.Object({ data: Type.Array(DestinationTypeSchema) }) },
      },
    },
    async () => types,
  )

  app.post(
    `${base}/:id/test`,
    {
      config,
      schema: {
        tags,
        summary: 'Send one synthetic generation to the destination now and answer what happened',
        description:
          "Built with the destination's flags and sent through its exporter, whether enabled or not and ignoring filter rules and sampling. Writes nothing: no delivery count, no last_error, no ledger entry, no generation record.",
        params: DestinationParams,
        response: { 200: Type.Object({ data: TestEventSchema }) },
      },
    },
    async (request) => ({ data: await service.sendTestEvent(request.params.id) }),
  )
}

function registerCollectionRoutes(app: TypedApp, service: ObservabilityService): void {
  app.post(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'Create an observability destination',
        body: CreateDestinationBody,
        response: { 201: one },
      },
    },
    async (request, reply) => {
      const data = await service.create(request.body)
      return reply.code(201).send({ data })
    },
  )

  app.get(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'List observability destinations (stable types only)',
        querystring: ListDestinationsQuery,
        response: { 200: TotalCountList(DestinationSchema) },
      },
    },
    async (request) => service.list({ ...offsetPage(request.query), workspaceId: request.query.workspace_id }),
  )
}

function registerDestinationRoutes(app: TypedApp, service: ObservabilityService): void {
  app.get(
    `${base}/:id`,
    {
      config,
      schema: { tags, summary: 'Get an observability destination', params: DestinationParams, response: { 200: one } },
    },
    async (request) => ({ data: await service.get(request.params.id) }),
  )

  app.patch(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Update an observability destination',
        params: DestinationParams,
        body: UpdateDestinationBody,
        response: { 200: one },
      },
    },
    async (request) => ({ data: await service.update(request.params.id, request.body) }),
  )

  app.delete(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete an observability destination (soft)',
        params: DestinationParams,
        response: { 200: Type.Object({ deleted: Type.Literal(true) }) },
      },
    },
    async (request) => service.remove(request.params.id),
  )
}
