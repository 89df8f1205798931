import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { offsetPage, TotalCountList } from '../../http/pagination.ts'
import {
  CreateDestinationBody,
  DestinationParams,
  DestinationSchema,
  ListDestinationsQuery,
  UpdateDestinationBody,
} from './schema.ts'
import type { ObservabilityService } from './service.ts'

const base = '/api/v1/observability/destinations'

export function registerObservabilityRoutes(app: FastifyInstance, service: ObservabilityService): void {
  const tags = ['observability']
  const config = { auth: 'management' as const }
  const one = Type.Object({ data: DestinationSchema })

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
      const data = await service.create(request.body as CreateDestinationBody)
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
    async (request) => {
      const query = request.query as { offset?: number; limit?: number; workspace_id?: string }
      return service.list({ ...offsetPage(query), workspaceId: query.workspace_id })
    },
  )

  app.get(
    `${base}/:id`,
    {
      config,
      schema: { tags, summary: 'Get an observability destination', params: DestinationParams, response: { 200: one } },
    },
    async (request) => {
      return { data: await service.get((request.params as { id: string }).id) }
    },
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
    async (request) => {
      return {
        data: await service.update((request.params as { id: string }).id, request.body as UpdateDestinationBody),
      }
    },
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
    async (request) => service.remove((request.params as { id: string }).id),
  )
}
