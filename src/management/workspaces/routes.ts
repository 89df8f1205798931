// Workspace routes (api-reference §4): CRUD and members. Budgets live in budget-routes.ts.
import { Type } from 'typebox'
import { OffsetLimitQuery, TotalCountList, offsetPage } from '../../http/pagination.ts'
import type { TypedApp } from '../../http/typed-app.ts'
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

const tags = ['workspaces']
const config = { auth: 'management' as const }
const single = { 200: Type.Object({ data: Workspace }) }

export function registerWorkspaceRoutes(app: TypedApp, service: WorkspaceService): void {
  registerWorkspaceListRoutes(app, service)
  registerWorkspaceItemRoutes(app, service)
  registerWorkspaceMemberRoutes(app, service)
}

function registerWorkspaceListRoutes(app: TypedApp, service: WorkspaceService): void {
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
      const { offset, limit } = offsetPage(request.query)
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
      const workspace = await service.create(request.body, request.principal?.key.creatorUserId ?? null)
      return reply.code(201).send({ data: workspace })
    },
  )
}

function registerWorkspaceItemRoutes(app: TypedApp, service: WorkspaceService): void {
  app.get(
    '/api/v1/workspaces/:id',
    { config, schema: { tags, summary: 'Get a workspace by id or slug', params: WorkspaceParams, response: single } },
    async (request) => ({ data: await service.get(request.params.id) }),
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
    async (request) => ({ data: await service.update(request.params.id, request.body) }),
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
      await service.delete(request.params.id, request.query.confirm_default_workspace_deletion === true)
      return { deleted: true as const }
    },
  )
}

function registerWorkspaceMemberRoutes(app: TypedApp, service: WorkspaceService): void {
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
      const { offset, limit } = offsetPage(request.query)
      return service.listMembers(request.params.id, offset, limit)
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
    async (request) => service.addMembers(request.params.id, request.body.user_ids),
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
    async (request) => service.removeMembers(request.params.id, request.body.user_ids),
  )
}
