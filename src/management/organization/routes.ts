import { Type } from 'typebox'
import { OffsetLimitQuery, TotalCountList, offsetPage } from '../../http/pagination.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import { CreateMemberBody, OrganizationMember } from './schema.ts'
import type { OrganizationService } from './service.ts'

export function registerOrganizationRoutes(app: TypedApp, service: OrganizationService): void {
  const tags = ['organization']
  app.get(
    '/api/v1/organization/members',
    {
      config: { auth: 'management' },
      schema: {
        tags,
        summary: 'List organization members',
        querystring: OffsetLimitQuery,
        response: { 200: TotalCountList(OrganizationMember) },
      },
    },
    async (request) => {
      const { offset, limit } = offsetPage(request.query)
      return service.listMembers(offset, limit)
    },
  )

  app.post(
    '/api/v1/organization/members',
    {
      config: { auth: 'management' },
      schema: {
        tags,
        summary: 'Add an organization member',
        body: CreateMemberBody,
        response: { 201: Type.Object({ data: OrganizationMember }) },
      },
    },
    async (request, reply) => {
      const member = await service.addMember(request.body)
      return reply.code(201).send({ data: member })
    },
  )
}
