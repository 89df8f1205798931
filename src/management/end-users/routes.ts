import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { TotalCountList } from '../../http/pagination.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import { EndUser, EndUserPath, ListEndUsersQuery, RegisterEndUserBody, UpdateEndUserBody } from './schema.ts'
import type { EndUsersService } from './service.ts'

const tags = ['end-users']
const one = Type.Object({ data: EndUser })
const config = { auth: 'management' as const }

function organizationOf(request: FastifyRequest): string {
  return request.principal!.key.organizationId
}

export function registerEndUsersRoutes(app: TypedApp, service: EndUsersService): void {
  registerEndUserListRoutes(app, service)
  registerEndUserItemRoutes(app, service)
}

function registerEndUserListRoutes(app: TypedApp, service: EndUsersService): void {
  app.post(
    '/api/v1/end-users',
    { config, schema: { tags, summary: 'Register an end user', body: RegisterEndUserBody, response: { 201: one } } },
    async (request, reply) => {
      const data = await service.register(organizationOf(request), request.body.user)
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
    async (request) => service.list(organizationOf(request), request.query),
  )
}

function registerEndUserItemRoutes(app: TypedApp, service: EndUsersService): void {
  app.get(
    '/api/v1/end-users/:user',
    { config, schema: { tags, summary: 'Get an end user', params: EndUserPath, response: { 200: one } } },
    async (request) => ({ data: await service.get(organizationOf(request), request.params.user) }),
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
      data: await service.setActive(organizationOf(request), request.params.user, request.body.is_active),
    }),
  )

  app.delete(
    '/api/v1/end-users/:user',
    {
      config,
      schema: { tags, summary: 'Deactivate an end user', params: EndUserPath, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await service.setActive(organizationOf(request), request.params.user, false)
      // 204 carries no body: Fastify drops the serialized null before writing the response.
      return reply.code(204).send(null)
    },
  )
}
