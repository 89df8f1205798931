// GET /byok (management key). Switchyard keeps no bring-your-own-key credentials:
// every upstream credential is the operator's, set in the provider config, so a workspace's BYOK list
// is truthfully empty. The workspace is still resolved, so a wrong one is a 404.
import { TotalCountList } from '../../http/pagination.ts'
import type { TypedApp } from '../../http/typed-app.ts'
import type { WorkspaceService } from '../workspaces/service.ts'
import { ByokKey, ListByokKeysQuery } from './schema.ts'

const tags = ['byok']
const config = { auth: 'management' as const }

export function registerByokRoutes(app: TypedApp, workspaces: WorkspaceService): void {
  app.get(
    '/api/v1/byok',
    {
      config,
      schema: {
        tags,
        summary: 'List bring-your-own-key provider credentials (none: upstream credentials come from config)',
        querystring: ListByokKeysQuery,
        response: { 200: TotalCountList(ByokKey) },
      },
    },
    async (request) => {
      const { workspace_id: workspaceId } = request.query
      if (workspaceId !== undefined) await workspaces.get(workspaceId)
      return { data: [], total_count: 0 }
    },
  )
}
