import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { TotalCountList } from '../../http/pagination.ts'
import { EndUser, EndUserPath, ListEndUsersQuery, RegisterEndUserBody, UpdateEndUserBody } from './schema.ts'
import type { EndUsersService } from './service.ts'

function organizationOf(request: FastifyRequest): string {
  return request.principal!.key.organizationId
}

function pathUser(request: FastifyRequest): string {
  return (request.params as { user: string }).user
}

export function registerEndUsersRoutes(app: FastifyInstance, service: EndUsersService): void {
  const tags = ['end-users']
  const one = Type.Object({ data: EndUser })
  const config = { auth: 'management' as const }

  app.post(
    '/api/v1/end-users',
    { config, schema: { tags, summary: 'Register an end user', body: RegisterEndUserBody, response: { 201: one } } },
    async (request, reply) => {
      const data = await service.register(organizationOf(request), (request.body as RegisterEndUserBody).user)
      return reply.code(201).send({ data })
    },
  )

  app.get(
    '/api/v1/end-users',
    {
      config,
      schema: {
        tags,
        summary: 'List end users',
        querystring: ListEndUsersQuery,
        response: { 200: TotalCountList(EndUser) },
      },
    },
    async (request) => service.list(organizationOf(request), request.query as ListEndUsersQuery),
  )

  app.get(
    '/api/v1/end-users/:user',
    { config, schema: { tags, summary: 'Get an end user', params: EndUserPath, response: { 200: one } } },
    async (request) => ({
      data: await service.get(organizationOf(request), pathUser(request)),
    }),
  )

  app.patch(
    '/api/v1/end-users/:user',
    {
      config,
      schema: {
        tags,
        summary: 'Activate or deactivate an end user',
        params: EndUserPath,
        body: UpdateEndUserBody,
        response: { 200: one },
      },
    },
    async (request) => ({
      data: await service.setActive(
        organizationOf(request),
        pathUser(request),
        (request.body as UpdateEndUserBody).is_active,
      ),
    }),
  )

  app.delete(
    '/api/v1/end-users/:user',
    {
      config,
      schema: { tags, summary: 'Deactivate an end user', params: EndUserPath, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await service.setActive(organizationOf(request), pathUser(request), false)
      return reply.code(204).send()
    },
  )
}
