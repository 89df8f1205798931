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

export function createGuardrailService(deps: GuardrailServiceDeps) {
  const { guardrails, workspaces, workspaceService, clock, changeBus, organizationId } = deps

  async function resolve(id: string): Promise<ResolvedGuardrail> {
    const stored = await guardrails.find(id)
    if (stored !== undefined && stored.organizationId === organizationId) {
      return {
        record: stored,
        isStored: true,
        isWorkspaceDefault: stored.workspaceId !== null && defaultGuardrailId(stored.workspaceId) === id,
      }
    }
    const workspace = (await workspaces.listAll()).find(
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
  async function materialize(resolved: ResolvedGuardrail): Promise<GuardrailRecord> {
    if (!resolved.isStored) await guardrails.insert(resolved.record)
    return resolved.record
  }

  async function workspaceIdFor(given: string | undefined): Promise<string> {
    if (given !== undefined) return (await workspaceService.resolve(given)).id
    const fallback = await workspaces.findDefault(organizationId)
    if (fallback === undefined)
      throw new GatewayError('invalid_request', 'There is no default workspace: pass workspace_id')
    return fallback.id
  }

  return {
    resolve,
    materialize,

    async list(query: {
      offset: number
      limit: number
      workspace_id?: string
    }): Promise<{ data: Guardrail[]; total_count: number }> {
      const workspaceId = await workspaceIdFor(query.workspace_id)
      const { rows, total } = await guardrails.list({ workspaceId, offset: query.offset, limit: query.limit })
      return { data: rows.map(toGuardrailObject), total_count: total }
    },

    async get(id: string): Promise<Guardrail> {
      return toGuardrailObject((await resolve(id)).record)
    },

    async create(body: CreateGuardrailBody): Promise<Guardrail> {
      assertBudgetFieldsTogether(body)
      const now = clock.now().toISOString()
      const workspaceId = await workspaceIdFor(body.workspace_id)
      const base = emptyGuardrail({ id: randomUUID(), organizationId, workspaceId, name: body.name, createdAt: now })
      const record = applyGuardrailBody(base, body, null)
      await guardrails.insert(record)
      changeBus.publish('guardrail', record.id)
      return toGuardrailObject(record)
    },

    async update(id: string, body: UpdateGuardrailBody): Promise<Guardrail> {
      const resolved = await resolve(id)
      if (resolved.isWorkspaceDefault && body.name !== undefined && body.name !== resolved.record.name) {
        throw new GatewayError(
          'invalid_request',
          `Guardrail ${id} is its workspace's default guardrail and cannot be renamed; leave name out`,
        )
      }
      const record = applyGuardrailBody(resolved.record, body, clock.now().toISOString())
      await materialize(resolved)
      await guardrails.replace(record)
      changeBus.publish('guardrail', id)
      return toGuardrailObject(record)
    },

    async delete(id: string): Promise<void> {
      const resolved = await resolve(id)
      if (resolved.isStored) await guardrails.delete(id)
      changeBus.publish('guardrail', id)
    },
  }
}

export type GuardrailService = ReturnType<typeof createGuardrailService>
