// Workspace budget routes (api-reference §4.2).
import type { FastifyInstance } from 'fastify'
import { Type } from 'typebox'
import { BudgetParams, UpsertBudgetBody, WorkspaceBudget, WorkspaceParams, type BudgetInterval } from './schema.ts'
import type { BudgetService } from './budget-service.ts'

type Params = { id: string; interval: BudgetInterval }

export function registerWorkspaceBudgetRoutes(app: FastifyInstance, service: BudgetService): void {
  const tags = ['workspaces']
  const config = { auth: 'management' as const }
  const includeByok = Type.Optional(Type.Boolean())
  const single = { 200: Type.Object({ data: WorkspaceBudget, include_byok_in_budgets: includeByok }) }

  app.get(
    '/api/v1/workspaces/:id/budgets',
    {
      config,
      schema: {
        tags,
        summary: 'List workspace budgets',
        params: WorkspaceParams,
        response: { 200: Type.Object({ data: Type.Array(WorkspaceBudget), include_byok_in_budgets: includeByok }) },
      },
    },
    async (request) => service.list((request.params as Params).id),
  )

  app.get(
    '/api/v1/workspaces/:id/budgets/:interval',
    { config, schema: { tags, summary: 'Get a workspace budget', params: BudgetParams, response: single } },
    async (request) => {
      const params = request.params as Params
      return service.get(params.id, params.interval)
    },
  )

  app.put(
    '/api/v1/workspaces/:id/budgets/:interval',
    {
      config,
      schema: {
        tags,
        summary: 'Set a workspace budget',
        params: BudgetParams,
        body: UpsertBudgetBody,
        response: single,
      },
    },
    async (request) => {
      const params = request.params as Params
      const body = request.body as { limit_usd: number; include_byok_in_budgets?: boolean }
      return service.put(params.id, params.interval, body.limit_usd, body.include_byok_in_budgets)
    },
  )

  app.delete(
    '/api/v1/workspaces/:id/budgets/:interval',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a workspace budget',
        params: BudgetParams,
        response: { 200: Type.Object({ deleted: Type.Literal(true) }) },
      },
    },
    async (request) => {
      const params = request.params as Params
      await service.delete(params.id, params.interval)
      return { deleted: true as const }
    },
  )
}
