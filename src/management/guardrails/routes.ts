// Guardrail routes (api-reference §5): CRUD here, assignments in assignment-routes.ts.
import { Type } from 'typebox'
import { TotalCountList, offsetPage } from '../../http/pagination.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import { CreateGuardrailBody, Guardrail, GuardrailParams, ListGuardrailsQuery, UpdateGuardrailBody } from './schema.ts'
import type { GuardrailService } from './service.ts'

const tags = ['guardrails']
const config = { auth: 'management' as const }
const single = { 200: Type.Object({ data: Guardrail }) }

export function registerGuardrailRoutes(app: TypedApp, service: GuardrailService): void {
  registerGuardrailListRoutes(app, service)
  registerGuardrailItemRoutes(app, service)
}

function registerGuardrailListRoutes(app: TypedApp, service: GuardrailService): void {
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
      const query = request.query
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
      const guardrail = await service.create(request.body)
      return reply.code(201).send({ data: guardrail })
    },
  )
}

function registerGuardrailItemRoutes(app: TypedApp, service: GuardrailService): void {
  app.get(
    '/api/v1/guardrails/:id',
    { config, schema: { tags, summary: 'Get a guardrail', params: GuardrailParams, response: single } },
    async (request) => ({ data: await service.get(request.params.id) }),
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
    async (request) => ({ data: await service.update(request.params.id, request.body) }),
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
      await service.delete(request.params.id)
      return { deleted: true as const }
    },
  )
}
