// Workspace budget routes (api-reference §4.2).
import { Type } from 'typebox'
import type { TypedApp } from '../../http/typed-app.ts'
import { BudgetParams, UpsertBudgetBody, WorkspaceBudget, WorkspaceParams } from './schema.ts'
import type { BudgetService } from './budget-service.ts'

const tags = ['workspaces']
const config = { auth: 'management' as const }
const includeByok = Type.Optional(Type.Boolean())
const single = { 200: Type.Object({ data: WorkspaceBudget, include_byok_in_budgets: includeByok }) }

export function registerWorkspaceBudgetRoutes(app: TypedApp, service: BudgetService): void {
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
    async (request) => service.list(request.params.id),
  )

  app.get(
    '/api/v1/workspaces/:id/budgets/:interval',
    { config, schema: { tags, summary: 'Get a workspace budget', params: BudgetParams, response: single } },
    async (request) => service.get(request.params.id, request.params.interval),
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
      const { id, interval } = request.params
      return service.put(id, interval, request.body.limit_usd, request.body.include_byok_in_budgets)
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
      await service.delete(request.params.id, request.params.interval)
      return { deleted: true as const }
    },
  )
}
