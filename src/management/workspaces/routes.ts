// Workspace routes (api-reference §4): CRUD and members. Budgets live in budget-routes.ts.
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { OffsetLimitQuery, TotalCountList, offsetPage } from '../../http/pagination.ts'
import {
  CreateWorkspaceBody,
  DeleteWorkspaceQuery,
  MembersBody,
  UpdateWorkspaceBody,
  Workspace,
  WorkspaceMember,
  WorkspaceParams,
} from './schema.ts'
import type { WorkspaceService } from './service.ts'

type Params = { id: string }
type PageQuery = { offset?: number; limit?: number }

export function registerWorkspaceRoutes(app: FastifyInstance, service: WorkspaceService): void {
  const tags = ['workspaces']
  const config = { auth: 'management' as const }
  const single = { 200: Type.Object({ data: Workspace }) }

  app.get(
    '/api/v1/workspaces',
    {
      config,
      schema: {
        tags,
        summary: 'List workspaces',
        querystring: OffsetLimitQuery,
        response: { 200: TotalCountList(Workspace) },
      },
    },
    async (request) => {
      const { offset, limit } = offsetPage(request.query as PageQuery)
      return service.list(offset, limit)
    },
  )

  app.post(
    '/api/v1/workspaces',
    {
      config,
      schema: {
        tags,
        summary: 'Create a workspace',
        body: CreateWorkspaceBody,
        response: { 201: Type.Object({ data: Workspace }) },
      },
    },
    async (request, reply) => {
      const workspace = await service.create(
        request.body as CreateWorkspaceBody,
        request.principal?.key.creatorUserId ?? null,
      )
      return reply.code(201).send({ data: workspace })
    },
  )

  app.get(
    '/api/v1/workspaces/:id',
    { config, schema: { tags, summary: 'Get a workspace by id or slug', params: WorkspaceParams, response: single } },
    async (request) => ({
      data: await service.get((request.params as Params).id),
    }),
  )

  app.patch(
    '/api/v1/workspaces/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Update a workspace',
        params: WorkspaceParams,
        body: UpdateWorkspaceBody,
        response: single,
      },
    },
    async (request) => ({
      data: await service.update((request.params as Params).id, request.body as UpdateWorkspaceBody),
    }),
  )

  app.delete(
    '/api/v1/workspaces/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a workspace',
        params: WorkspaceParams,
        querystring: DeleteWorkspaceQuery,
        response: { 200: Type.Object({ deleted: Type.Literal(true) }) },
      },
    },
    async (request) => {
      const query = request.query as { confirm_default_workspace_deletion?: boolean }
      await service.delete((request.params as Params).id, query.confirm_default_workspace_deletion === true)
      return { deleted: true as const }
    },
  )

  app.get(
    '/api/v1/workspaces/:id/members',
    {
      config,
      schema: {
        tags,
        summary: 'List workspace members',
        params: WorkspaceParams,
        querystring: OffsetLimitQuery,
        response: { 200: TotalCountList(WorkspaceMember) },
      },
    },
    async (request) => {
      const { offset, limit } = offsetPage(request.query as PageQuery)
      return service.listMembers((request.params as Params).id, offset, limit)
    },
  )

  app.post(
    '/api/v1/workspaces/:id/members/add',
    {
      config,
      schema: {
        tags,
        summary: 'Add workspace members',
        params: WorkspaceParams,
        body: MembersBody,
        response: { 200: Type.Object({ added_count: Type.Integer(), data: Type.Array(WorkspaceMember) }) },
      },
    },
    async (request) =>
      service.addMembers((request.params as Params).id, (request.body as { user_ids: string[] }).user_ids),
  )

  app.post(
    '/api/v1/workspaces/:id/members/remove',
    {
      config,
      schema: {
        tags,
        summary: 'Remove workspace members',
        params: WorkspaceParams,
        body: MembersBody,
        response: { 200: Type.Object({ removed_count: Type.Integer() }) },
      },
    },
    async (request) =>
      service.removeMembers((request.params as Params).id, (request.body as { user_ids: string[] }).user_ids),
  )
}
