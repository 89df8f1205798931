// Which key or workspace a new rate-limit rule is set on: exactly one of key_hash and workspace_id,
// naming an existing key (of this organization) or workspace (by id or slug).
import { GatewayError } from '../../domain/errors.ts'
import type { RateLimitScope } from '../../domain/rate-limit-rule.ts'
import type { RateLimitRuleServiceDeps } from './service.ts'
import type { CreateRateLimitRuleBody } from './schema.ts'

export interface RuleTarget {
  readonly scope: RateLimitScope
  readonly target: string
  readonly workspaceId: string
}

export async function resolveRuleTarget(
  deps: Pick<RateLimitRuleServiceDeps, 'apiKeys' | 'workspaces' | 'organizationId'>,
  body: CreateRateLimitRuleBody,
): Promise<RuleTarget> {
  if ((body.key_hash === undefined) === (body.workspace_id === undefined))
    throw new GatewayError(
      'invalid_request',
      'A rate-limit rule is set on exactly one of key_hash (a key) or workspace_id (a workspace)',
    )
  if (body.key_hash !== undefined) {
    const key = await deps.apiKeys.findByHash(body.key_hash)
    if (key === undefined || key.organizationId !== deps.organizationId)
      throw new GatewayError('not_found', `API key ${body.key_hash} not found: list keys with GET /api/v1/keys`)
    if (key.kind === 'management')
      throw new GatewayError(
        'invalid_request',
        'Management keys make no inference calls; set rate-limit rules on inference keys or workspaces',
      )
    return { scope: 'key', target: key.hash, workspaceId: key.workspaceId }
  }
  const workspace = await deps.workspaces.find(body.workspace_id!)
  if (workspace === undefined || workspace.organization_id !== deps.organizationId)
    throw new GatewayError(
      'not_found',
      `Workspace ${body.workspace_id} not found: list workspaces with GET /api/v1/workspaces`,
    )
  return { scope: 'workspace', target: workspace.id, workspaceId: workspace.id }
}
