// Guardrail routes (api-reference §5): CRUD here, assignments in assignment-routes.ts.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { TotalCountList, offsetPage } from '../../http/pagination.ts'
import { CreateGuardrailBody, Guardrail, GuardrailParams, ListGuardrailsQuery, UpdateGuardrailBody } from './schema.ts'
import type { GuardrailService } from './service.ts'

type Params = { id: string }

export function registerGuardrailRoutes(app: FastifyInstance, service: GuardrailService): void {
  const tags = ['guardrails']
  const config = { auth: 'management' as const }
  const single = { 200: Type.Object({ data: Guardrail }) }

  app.get(
    '/api/v1/guardrails',
    {
      config,
      schema: {
        tags,
        summary: 'List guardrails of a workspace',
        querystring: ListGuardrailsQuery,
        response: { 200: TotalCountList(Guardrail) },
      },
    },
    async (request) => {
      const query = request.query as { offset?: number; limit?: number; workspace_id?: string }
      return service.list({
        ...offsetPage(query),
        ...(query.workspace_id === undefined ? {} : { workspace_id: query.workspace_id }),
      })
    },
  )

  app.post(
    '/api/v1/guardrails',
    {
      config,
      schema: {
        tags,
        summary: 'Create a guardrail',
        body: CreateGuardrailBody,
        response: { 201: Type.Object({ data: Guardrail }) },
      },
    },
    async (request, reply) => {
      const guardrail = await service.create(request.body as CreateGuardrailBody)
      return reply.code(201).send({ data: guardrail })
    },
  )

  app.get(
    '/api/v1/guardrails/:id',
    { config, schema: { tags, summary: 'Get a guardrail', params: GuardrailParams, response: single } },
    async (request) => ({
      data: await service.get((request.params as Params).id),
    }),
  )

  app.patch(
    '/api/v1/guardrails/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Update a guardrail',
        params: GuardrailParams,
        body: UpdateGuardrailBody,
        response: single,
      },
    },
    async (request) => ({
      data: await service.update((request.params as Params).id, request.body as UpdateGuardrailBody),
    }),
  )

  app.delete(
    '/api/v1/guardrails/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a guardrail',
        params: GuardrailParams,
        response: { 200: Type.Object({ deleted: Type.Literal(true) }) },
      },
    },
    async (request) => {
      await service.delete((request.params as Params).id)
      return { deleted: true as const }
    },
  )
}
