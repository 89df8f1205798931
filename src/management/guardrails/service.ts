// Guardrails: CRUD. Each workspace also has a default guardrail whose id is derived from the workspace
// id (api-reference §4.1 default_guardrail_id): it reads as an empty guardrail until first written, is
// then stored, and cannot be renamed. Changes are announced under 'guardrail' with the guardrail id.
import { randomUUID } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import { defaultGuardrailId } from '../../guardrails/default-guardrail-id.ts'
import type { GuardrailRecord } from '../../domain/guardrail-record.ts'
import type { GuardrailsRepository } from '../../store/repositories/guardrails-repository.ts'
import type { WorkspacesRepository } from '../../store/repositories/workspaces-repository.ts'
import type { WorkspaceService } from '../workspaces/service.ts'
import { applyGuardrailBody, assertBudgetFieldsTogether, emptyGuardrail } from './apply-guardrail-body.ts'
import { toGuardrailObject } from './guardrail-object.ts'
import type { CreateGuardrailBody, Guardrail, UpdateGuardrailBody } from './schema.ts'

export const workspaceDefaultGuardrailName = 'Workspace default'

export interface GuardrailServiceDeps {
  readonly guardrails: GuardrailsRepository
  readonly workspaces: WorkspacesRepository
  readonly workspaceService: WorkspaceService
  readonly clock: Clock
  readonly changeBus: ChangeBus
  readonly organizationId: string
}

export interface ResolvedGuardrail {
  readonly record: GuardrailRecord
  /** false for a workspace default guardrail that was never written. */
  readonly isStored: boolean
  readonly isWorkspaceDefault: boolean
}

interface GuardrailListQuery {
  offset: number
  limit: number
  workspace_id?: string
}

export function createGuardrailService(deps: GuardrailServiceDeps) {
  return {
    resolve: (id: string): Promise<ResolvedGuardrail> => resolveGuardrail(deps, id),
    materialize: (resolved: ResolvedGuardrail): Promise<GuardrailRecord> => materialize(deps, resolved),
    list: (query: GuardrailListQuery): Promise<{ data: Guardrail[]; total_count: number }> =>
      listGuardrails(deps, query),
    get: async (id: string): Promise<Guardrail> => toGuardrailObject((await resolveGuardrail(deps, id)).record),
    create: (body: CreateGuardrailBody): Promise<Guardrail> => createGuardrail(deps, body),
    update: (id: string, body: UpdateGuardrailBody): Promise<Guardrail> => updateGuardrail(deps, id, body),
    delete: (id: string): Promise<void> => deleteGuardrail(deps, id),
  }
}

async function resolveGuardrail(deps: GuardrailServiceDeps, id: string): Promise<ResolvedGuardrail> {
  const { organizationId } = deps
  const stored = await deps.guardrails.find(id)
  if (stored !== undefined && stored.organizationId === organizationId) {
    return {
      record: stored,
      isStored: true,
      isWorkspaceDefault: stored.workspaceId !== null && defaultGuardrailId(stored.workspaceId) === id,
    }
  }
  const workspace = (await deps.workspaces.listAll()).find(
    (row) => row.organization_id === organizationId && defaultGuardrailId(row.id) === id,
  )
  if (workspace === undefined)
    throw new GatewayError('not_found', `Guardrail ${id} not found: list guardrails with GET /api/v1/guardrails`)
  const record = emptyGuardrail({
    id,
    organizationId,
    workspaceId: workspace.id,
    name: workspaceDefaultGuardrailName,
    createdAt: workspace.created_at,
  })
  return { record, isStored: false, isWorkspaceDefault: true }
}

/** Stores a never-written workspace default guardrail so assignments and updates can refer to it. */
async function materialize(deps: GuardrailServiceDeps, resolved: ResolvedGuardrail): Promise<GuardrailRecord> {
  if (!resolved.isStored) await deps.guardrails.insert(resolved.record)
  return resolved.record
}

async function workspaceIdFor(deps: GuardrailServiceDeps, given: string | undefined): Promise<string> {
  if (given !== undefined) return (await deps.workspaceService.resolve(given)).id
  const fallback = await deps.workspaces.findDefault(deps.organizationId)
  if (fallback === undefined)
    throw new GatewayError('invalid_request', 'There is no default workspace: pass workspace_id')
  return fallback.id
}

async function listGuardrails(
  deps: GuardrailServiceDeps,
  query: GuardrailListQuery,
): Promise<{ data: Guardrail[]; total_count: number }> {
  const workspaceId = await workspaceIdFor(deps, query.workspace_id)
  const { rows, total } = await deps.guardrails.list({ workspaceId, offset: query.offset, limit: query.limit })
  return { data: rows.map(toGuardrailObject), total_count: total }
}

async function createGuardrail(deps: GuardrailServiceDeps, body: CreateGuardrailBody): Promise<Guardrail> {
  assertBudgetFieldsTogether(body)
  const now = deps.clock.now().toISOString()
  const workspaceId = await workspaceIdFor(deps, body.workspace_id)
  const base = emptyGuardrail({
    id: randomUUID(),
    organizationId: deps.organizationId,
    workspaceId,
    name: body.name,
    createdAt: now,
  })
  const record = applyGuardrailBody(base, body, null)
  await deps.guardrails.insert(record)
  deps.changeBus.publish('guardrail', record.id)
  return toGuardrailObject(record)
}

async function updateGuardrail(deps: GuardrailServiceDeps, id: string, body: UpdateGuardrailBody): Promise<Guardrail> {
  const resolved = await resolveGuardrail(deps, id)
  if (resolved.isWorkspaceDefault && body.name !== undefined && body.name !== resolved.record.name) {
    throw new GatewayError(
      'invalid_request',
      `Guardrail ${id} is its workspace's default guardrail and cannot be renamed; leave name out`,
    )
  }
  const record = applyGuardrailBody(resolved.record, body, deps.clock.now().toISOString())
  await materialize(deps, resolved)
  await deps.guardrails.replace(record)
  deps.changeBus.publish('guardrail', id)
  return toGuardrailObject(record)
}

async function deleteGuardrail(deps: GuardrailServiceDeps, id: string): Promise<void> {
  const resolved = await resolveGuardrail(deps, id)
  if (resolved.isStored) await deps.guardrails.delete(id)
  deps.changeBus.publish('guardrail', id)
}

export type GuardrailService = ReturnType<typeof createGuardrailService>
