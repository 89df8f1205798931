// Rate-limit rules: create, read, update and delete requests- and tokens-per-minute limits on a key or a
// workspace, for every model or one model. Every change is announced under 'rate_limit' with the rule id,
// so every instance's rule cache follows it (the answer waits for this instance's: answer-when-applied.ts).
import { randomUUID } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { RateLimitRule } from '../../domain/rate-limit-rule.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import type { ApiKeysRepository } from '../../store/repositories/api-keys-repository.ts'
import type { RateLimitRulesRepository } from '../../store/repositories/rate-limit-rules-repository.ts'
import type { WorkspacesRepository } from '../../store/repositories/workspaces-repository.ts'
import { toRateLimitRuleObject } from './rate-limit-rule-object.ts'
import { resolveRuleTarget } from './resolve-rule-target.ts'
import type {
  CreateRateLimitRuleBody,
  ListRateLimitRulesQuery,
  RateLimitRuleObject,
  UpdateRateLimitRuleBody,
} from './schema.ts'

export interface RateLimitRuleServiceDeps {
  readonly rules: RateLimitRulesRepository
  readonly apiKeys: Pick<ApiKeysRepository, 'findByHash'>
  readonly workspaces: Pick<WorkspacesRepository, 'find'>
  readonly clock: Clock
  readonly changeBus: ChangeBus
  readonly organizationId: string
}

export function createRateLimitRuleService(deps: RateLimitRuleServiceDeps) {
  return {
    list: (query: ListRateLimitRulesQuery): Promise<RateLimitRuleObject[]> => listRules(deps, query),
    get: async (id: string): Promise<RateLimitRuleObject> => toRateLimitRuleObject(await findRule(deps, id)),
    create: (body: CreateRateLimitRuleBody): Promise<RateLimitRuleObject> => createRule(deps, body),
    update: (id: string, body: UpdateRateLimitRuleBody): Promise<RateLimitRuleObject> => updateRule(deps, id, body),
    delete: (id: string): Promise<void> => deleteRule(deps, id),
  }
}

export type RateLimitRuleService = ReturnType<typeof createRateLimitRuleService>

async function listRules(
  deps: RateLimitRuleServiceDeps,
  query: ListRateLimitRulesQuery,
): Promise<RateLimitRuleObject[]> {
  const workspace = query.workspace_id === undefined ? undefined : await deps.workspaces.find(query.workspace_id)
  if (query.workspace_id !== undefined && workspace === undefined)
    throw new GatewayError('not_found', `Workspace ${query.workspace_id} not found`)
  const rules = await deps.rules.list({
    ...(workspace === undefined ? {} : { workspaceId: workspace.id }),
    ...(query.key_hash === undefined ? {} : { scope: 'key' as const, target: query.key_hash }),
  })
  return rules.filter((rule) => rule.organizationId === deps.organizationId).map(toRateLimitRuleObject)
}

async function findRule(deps: RateLimitRuleServiceDeps, id: string): Promise<RateLimitRule> {
  const rule = await deps.rules.find(id)
  if (rule === undefined || rule.organizationId !== deps.organizationId)
    throw new GatewayError('not_found', `Rate-limit rule ${id} not found: list rules with GET /api/v1/rate-limits`)
  return rule
}

async function createRule(deps: RateLimitRuleServiceDeps, body: CreateRateLimitRuleBody): Promise<RateLimitRuleObject> {
  const target = await resolveRuleTarget(deps, body)
  const limits = { requests: body.requests_per_minute ?? null, tokens: body.tokens_per_minute ?? null }
  assertSomeLimit(limits.requests, limits.tokens)
  const model = body.model ?? null
  const existing = await deps.rules.findByTarget(target.scope, target.target, model)
  if (existing !== undefined) throw duplicate(existing)
  const now = deps.clock.now().toISOString()
  const rule: RateLimitRule = {
    id: `rl_${randomUUID()}`,
    organizationId: deps.organizationId,
    ...target,
    model,
    requestsPerMinute: limits.requests,
    tokensPerMinute: limits.tokens,
    createdAt: now,
    updatedAt: now,
  }
  try {
    await deps.rules.insert(rule)
  } catch (error) {
    // A concurrent create of the same rule won the unique constraint: answer as if it had come first.
    const winner = await deps.rules.findByTarget(target.scope, target.target, model)
    if (winner !== undefined) throw duplicate(winner)
    throw error
  }
  deps.changeBus.publish('rate_limit', rule.id)
  return toRateLimitRuleObject(rule)
}

async function updateRule(
  deps: RateLimitRuleServiceDeps,
  id: string,
  body: UpdateRateLimitRuleBody,
): Promise<RateLimitRuleObject> {
  const rule = await findRule(deps, id)
  const requests = body.requests_per_minute === undefined ? rule.requestsPerMinute : body.requests_per_minute
  const tokens = body.tokens_per_minute === undefined ? rule.tokensPerMinute : body.tokens_per_minute
  assertSomeLimit(requests, tokens)
  const updated = {
    ...rule,
    requestsPerMinute: requests,
    tokensPerMinute: tokens,
    updatedAt: deps.clock.now().toISOString(),
  }
  await deps.rules.update(updated)
  deps.changeBus.publish('rate_limit', id)
  return toRateLimitRuleObject(updated)
}

async function deleteRule(deps: RateLimitRuleServiceDeps, id: string): Promise<void> {
  await findRule(deps, id)
  await deps.rules.delete(id)
  deps.changeBus.publish('rate_limit', id)
}

function assertSomeLimit(requests: number | null, tokens: number | null): void {
  if (requests === null && tokens === null)
    throw new GatewayError(
      'invalid_request',
      'A rate-limit rule needs requests_per_minute or tokens_per_minute (or both); delete the rule to lift its limits',
    )
}

function duplicate(existing: RateLimitRule): GatewayError {
  const what = existing.model === null ? 'every model' : `model ${existing.model}`
  return new GatewayError(
    'conflict',
    `A rate-limit rule for this ${existing.scope} and ${what} already exists (${existing.id}); change it with PATCH /api/v1/rate-limits/${existing.id}`,
  )
}
