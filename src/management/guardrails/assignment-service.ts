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

type AssignmentPageQuery = PageQuery & { guardrailId?: string }

export function createAssignmentService(deps: AssignmentServiceDeps) {
  return {
    assignKeys: (
      id: string,
      keyHashes: readonly string[],
      assignedBy: string | null,
    ): Promise<{ assigned_count: number }> => assignKeys(deps, id, keyHashes, assignedBy),
    unassignKeys: (id: string, keyHashes: readonly string[]): Promise<{ unassigned_count: number }> =>
      unassignKeys(deps, id, keyHashes),
    assignMembers: (
      id: string,
      userIds: readonly string[],
      assignedBy: string | null,
    ): Promise<{ assigned_count: number }> => assignMembers(deps, id, userIds, assignedBy),
    unassignMembers: (id: string, userIds: readonly string[]): Promise<{ unassigned_count: number }> =>
      unassignMembers(deps, id, userIds),
    listKeyAssignments: (page: AssignmentPageQuery): Promise<{ data: KeyAssignment[]; total_count: number }> =>
      listKeyAssignments(deps, page),
    listMemberAssignments: (page: AssignmentPageQuery): Promise<{ data: MemberAssignment[]; total_count: number }> =>
      listMemberAssignments(deps, page),
  }
}

async function assignable(deps: AssignmentServiceDeps, id: string): Promise<ResolvedGuardrail> {
  const resolved = await deps.guardrailService.resolve(id)
  if (resolved.isWorkspaceDefault) {
    throw new GatewayError(
      'invalid_request',
      `Guardrail ${id} is a workspace default guardrail: it already applies to every key of its workspace and takes no assignments`,
    )
  }
  return resolved
}

function announce(deps: AssignmentServiceDeps, guardrailId: string, previous: readonly string[]): void {
  deps.changeBus.publish('guardrail', guardrailId)
  for (const id of previous) deps.changeBus.publish('guardrail', id)
}

async function assignKeys(
  deps: AssignmentServiceDeps,
  id: string,
  keyHashes: readonly string[],
  assignedBy: string | null,
): Promise<{ assigned_count: number }> {
  const { record } = await assignable(deps, id)
  const hashes = [...new Set(keyHashes)]
  const keys = await deps.assignments.findKeys(hashes)
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
  const result = await deps.assignments.assignKeys(id, hashes, assignedBy, deps.clock.now().toISOString())
  announce(deps, id, result.previousGuardrailIds)
  return { assigned_count: result.assignedCount }
}

async function unassignKeys(
  deps: AssignmentServiceDeps,
  id: string,
  keyHashes: readonly string[],
): Promise<{ unassigned_count: number }> {
  await deps.guardrailService.resolve(id)
  const count = await deps.assignments.unassignKeys(id, [...new Set(keyHashes)])
  if (count > 0) announce(deps, id, [])
  return { unassigned_count: count }
}

async function assignMembers(
  deps: AssignmentServiceDeps,
  id: string,
  userIds: readonly string[],
  assignedBy: string | null,
): Promise<{ assigned_count: number }> {
  const { organizationId } = deps
  await assignable(deps, id)
  const ids = [...new Set(userIds)]
  const users = await deps.workspaces.findUsers(organizationId, ids)
  const found = new Set(users.map((user) => user.id))
  const unknown = ids.filter((userId) => !found.has(userId))
  if (unknown.length > 0) throw unknownError('user ids', unknown, 'list members with GET /api/v1/organization/members')
  const now = deps.clock.now().toISOString()
  const result = await deps.assignments.assignMembers(id, organizationId, ids, assignedBy, now)
  announce(deps, id, result.previousGuardrailIds)
  return { assigned_count: result.assignedCount }
}

async function unassignMembers(
  deps: AssignmentServiceDeps,
  id: string,
  userIds: readonly string[],
): Promise<{ unassigned_count: number }> {
  await deps.guardrailService.resolve(id)
  const count = await deps.assignments.unassignMembers(id, [...new Set(userIds)])
  if (count > 0) announce(deps, id, [])
  return { unassigned_count: count }
}

async function listKeyAssignments(
  deps: AssignmentServiceDeps,
  page: AssignmentPageQuery,
): Promise<{ data: KeyAssignment[]; total_count: number }> {
  if (page.guardrailId !== undefined) await deps.guardrailService.resolve(page.guardrailId)
  const { rows, total } = await deps.assignments.listKeyAssignments(page)
  return { data: rows.map((row) => ({ ...row })), total_count: total }
}

async function listMemberAssignments(
  deps: AssignmentServiceDeps,
  page: AssignmentPageQuery,
): Promise<{ data: MemberAssignment[]; total_count: number }> {
  if (page.guardrailId !== undefined) await deps.guardrailService.resolve(page.guardrailId)
  const { rows, total } = await deps.assignments.listMemberAssignments(page)
  return { data: rows.map((row) => ({ ...row })), total_count: total }
}

export type AssignmentService = ReturnType<typeof createAssignmentService>
