// Guardrail assignments to keys and members. A key (or member) holds at most one guardrail: assigning
// replaces its previous assignment. A workspace's default guardrail applies to the whole workspace and
// takes no assignments. Every guardrail that gains or loses holders is announced under 'guardrail'.
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import type { GuardrailAssignmentsRepository } from '../../store/repositories/guardrail-assignments-repository.ts'
import type { WorkspacesRepository } from '../../store/repositories/workspaces-repository.ts'
import type { KeyAssignment, MemberAssignment } from './schema.ts'
import type { GuardrailService, ResolvedGuardrail } from './service.ts'

export interface AssignmentServiceDeps {
  readonly assignments: GuardrailAssignmentsRepository
  readonly workspaces: WorkspacesRepository
  readonly guardrailService: GuardrailService
  readonly clock: Clock
  readonly changeBus: ChangeBus
  readonly organizationId: string
}

interface PageQuery {
  readonly offset: number
  readonly limit: number
}

function unknownError(what: string, unknown: readonly string[], hint: string): GatewayError {
  return new GatewayError('not_found', `Unknown ${what}: ${unknown.join(', ')}; ${hint}`, {
    metadata: { unknown: [...unknown] },
  })
}

export function createAssignmentService(deps: AssignmentServiceDeps) {
  const { assignments, workspaces, guardrailService, clock, changeBus, organizationId } = deps

  async function assignable(id: string): Promise<ResolvedGuardrail> {
    const resolved = await guardrailService.resolve(id)
    if (resolved.isWorkspaceDefault) {
      throw new GatewayError(
        'invalid_request',
        `Guardrail ${id} is a workspace default guardrail: it already applies to every key of its workspace and takes no assignments`,
      )
    }
    return resolved
  }

  function announce(guardrailId: string, previous: readonly string[]): void {
    changeBus.publish('guardrail', guardrailId)
    for (const id of previous) changeBus.publish('guardrail', id)
  }

  return {
    async assignKeys(
      id: string,
      keyHashes: readonly string[],
      assignedBy: string | null,
    ): Promise<{ assigned_count: number }> {
      const { record } = await assignable(id)
      const hashes = [...new Set(keyHashes)]
      const keys = await assignments.findKeys(hashes)
      const found = new Set(keys.map((key) => key.hash))
      const unknown = hashes.filter((hash) => !found.has(hash))
      if (unknown.length > 0) throw unknownError('key hashes', unknown, 'list keys with GET /api/v1/keys')
      const elsewhere = keys
        .filter((key) => record.workspaceId !== null && key.workspace_id !== record.workspaceId)
        .map((key) => key.hash)
      if (elsewhere.length > 0) {
        throw new GatewayError(
          'invalid_request',
          `Keys ${elsewhere.join(', ')} belong to another workspace than guardrail ${id} (${record.workspaceId}); assign them a guardrail of their own workspace`,
        )
      }
      const result = await assignments.assignKeys(id, hashes, assignedBy, clock.now().toISOString())
      announce(id, result.previousGuardrailIds)
      return { assigned_count: result.assignedCount }
    },

    async unassignKeys(id: string, keyHashes: readonly string[]): Promise<{ unassigned_count: number }> {
      await guardrailService.resolve(id)
      const count = await assignments.unassignKeys(id, [...new Set(keyHashes)])
      if (count > 0) announce(id, [])
      return { unassigned_count: count }
    },

    async assignMembers(
      id: string,
      userIds: readonly string[],
      assignedBy: string | null,
    ): Promise<{ assigned_count: number }> {
      await assignable(id)
      const ids = [...new Set(userIds)]
      const users = await workspaces.findUsers(organizationId, ids)
      const found = new Set(users.map((user) => user.id))
      const unknown = ids.filter((userId) => !found.has(userId))
      if (unknown.length > 0)
        throw unknownError('user ids', unknown, 'list members with GET /api/v1/organization/members')
      const result = await assignments.assignMembers(id, organizationId, ids, assignedBy, clock.now().toISOString())
      announce(id, result.previousGuardrailIds)
      return { assigned_count: result.assignedCount }
    },

    async unassignMembers(id: string, userIds: readonly string[]): Promise<{ unassigned_count: number }> {
      await guardrailService.resolve(id)
      const count = await assignments.unassignMembers(id, [...new Set(userIds)])
      if (count > 0) announce(id, [])
      return { unassigned_count: count }
    },

    async listKeyAssignments(
      page: PageQuery & { guardrailId?: string },
    ): Promise<{ data: KeyAssignment[]; total_count: number }> {
      if (page.guardrailId !== undefined) await guardrailService.resolve(page.guardrailId)
      const { rows, total } = await assignments.listKeyAssignments(page)
      return { data: rows.map((row) => ({ ...row })), total_count: total }
    },

    async listMemberAssignments(
      page: PageQuery & { guardrailId?: string },
    ): Promise<{ data: MemberAssignment[]; total_count: number }> {
      if (page.guardrailId !== undefined) await guardrailService.resolve(page.guardrailId)
      const { rows, total } = await assignments.listMemberAssignments(page)
      return { data: rows.map((row) => ({ ...row })), total_count: total }
    },
  }
}

export type AssignmentService = ReturnType<typeof createAssignmentService>
