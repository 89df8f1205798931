// Workspaces and their members. The default workspace holds every organization member implicitly; the
// others hold explicit members. Every change is announced on the change bus under 'workspace'.
import { randomUUID } from 'node:crypto'
import type { Updateable } from 'kysely'
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import type { WorkspaceTable } from '../../store/database.ts'
import type { WorkspaceRow, WorkspacesRepository } from '../../store/repositories/workspaces-repository.ts'
import { newWorkspaceRow } from '../../store/repositories/organizations-repository.ts'
import type { CreateWorkspaceBody, UpdateWorkspaceBody, Workspace, WorkspaceMember } from './schema.ts'
import { checkResponseCacheTtl } from '../response-cache-fields.ts'
import { toImplicitMemberObject, toMemberObject, toWorkspaceObject, workspaceRoleOf } from './workspace-object.ts'

export interface WorkspaceServiceDeps {
  readonly workspaces: WorkspacesRepository
  readonly clock: Clock
  readonly changeBus: ChangeBus
  readonly organizationId: string
  /** `cache.max_ttl_seconds`: the largest `cache_ttl_seconds` a workspace accepts. */
  readonly maxCacheTtlSeconds: number
}

type Page<T> = { data: T[]; total_count: number }

function toJsonList(value: readonly unknown[] | null | undefined): string | null | undefined {
  if (value === undefined) return undefined
  return value === null || value.length === 0 ? null : JSON.stringify([...new Set(value)])
}

/** The column values a create or update body sets (undefined = left unchanged). */
function toColumns(body: UpdateWorkspaceBody): Updateable<WorkspaceTable> {
  const cacheEnabled = body.cache_enabled
  const columns: Updateable<WorkspaceTable> = {
    name: body.name,
    slug: body.slug,
    description: body.description,
    default_image_model: body.default_image_model,
    default_text_model: body.default_text_model,
    default_provider_sort: body.default_provider_sort,
    disabled_server_tools: toJsonList(body.disabled_server_tools),
    io_logging_api_key_ids: toJsonList(body.io_logging_api_key_ids),
    io_logging_sampling_rate: body.io_logging_sampling_rate,
    is_data_discount_logging_enabled:
      body.is_data_discount_logging_enabled === undefined ? undefined : Number(body.is_data_discount_logging_enabled),
    is_observability_broadcast_enabled:
      body.is_observability_broadcast_enabled === undefined
        ? undefined
        : Number(body.is_observability_broadcast_enabled),
    is_observability_io_logging_enabled:
      body.is_observability_io_logging_enabled === undefined
        ? undefined
        : Number(body.is_observability_io_logging_enabled),
    response_cache_enabled: cacheEnabled === undefined || cacheEnabled === null ? cacheEnabled : Number(cacheEnabled),
    response_cache_ttl_seconds: body.cache_ttl_seconds,
  }
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined))
}

export function createWorkspaceService(deps: WorkspaceServiceDeps) {
  return {
    resolve: (idOrSlug: string): Promise<WorkspaceRow> => resolveWorkspace(deps, idOrSlug),
    list: (offset: number, limit: number): Promise<Page<Workspace>> => listWorkspaces(deps, offset, limit),
    get: async (idOrSlug: string): Promise<Workspace> => toWorkspaceObject(await resolveWorkspace(deps, idOrSlug)),
    create: (body: CreateWorkspaceBody, createdBy: string | null): Promise<Workspace> =>
      createWorkspace(deps, body, createdBy),
    update: (idOrSlug: string, body: UpdateWorkspaceBody): Promise<Workspace> => updateWorkspace(deps, idOrSlug, body),
    delete: (idOrSlug: string, confirmDefault: boolean): Promise<void> =>
      deleteWorkspace(deps, idOrSlug, confirmDefault),
    listMembers: (idOrSlug: string, offset: number, limit: number): Promise<Page<WorkspaceMember>> =>
      listMembers(deps, idOrSlug, offset, limit),
    addMembers: (
      idOrSlug: string,
      userIds: readonly string[],
    ): Promise<{ added_count: number; data: WorkspaceMember[] }> => addMembers(deps, idOrSlug, userIds),
    removeMembers: (idOrSlug: string, userIds: readonly string[]): Promise<{ removed_count: number }> =>
      removeMembers(deps, idOrSlug, userIds),
  }
}

async function resolveWorkspace(deps: WorkspaceServiceDeps, idOrSlug: string): Promise<WorkspaceRow> {
  const workspace = await deps.workspaces.find(idOrSlug)
  if (workspace === undefined || workspace.organization_id !== deps.organizationId) {
    throw new GatewayError(
      'not_found',
      `Workspace "${idOrSlug}" not found: pass a workspace id or slug from GET /api/v1/workspaces`,
    )
  }
  return workspace
}

async function assertSlugFree(deps: WorkspaceServiceDeps, slug: string, exceptId?: string): Promise<void> {
  const holder = await deps.workspaces.findBySlug(slug)
  if (holder !== undefined && holder.id !== exceptId) {
    throw new GatewayError(
      'conflict',
      `The slug "${slug}" is already used by workspace ${holder.id}: choose another slug`,
    )
  }
}

async function assertUsersExist(deps: WorkspaceServiceDeps, userIds: readonly string[]) {
  const users = await deps.workspaces.findUsers(deps.organizationId, userIds)
  const found = new Set(users.map((user) => user.id))
  const unknown = [...new Set(userIds)].filter((id) => !found.has(id))
  if (unknown.length > 0) {
    throw new GatewayError(
      'not_found',
      `Unknown user ids: ${unknown.join(', ')}; list the organization members with GET /api/v1/organization/members`,
      {
        metadata: { unknown_user_ids: unknown },
      },
    )
  }
  return users
}

function refuseOnDefault(workspace: WorkspaceRow, action: string): void {
  if (workspace.is_default === 1) {
    throw new GatewayError(
      'invalid_request',
      `Cannot ${action} the default workspace: every organization member is implicitly its member`,
    )
  }
}

async function listWorkspaces(deps: WorkspaceServiceDeps, offset: number, limit: number): Promise<Page<Workspace>> {
  const { rows, total } = await deps.workspaces.list(deps.organizationId, offset, limit)
  return { data: rows.map(toWorkspaceObject), total_count: total }
}

async function createWorkspace(
  deps: WorkspaceServiceDeps,
  body: CreateWorkspaceBody,
  createdBy: string | null,
): Promise<Workspace> {
  checkResponseCacheTtl(body.cache_ttl_seconds, deps.maxCacheTtlSeconds)
  await assertSlugFree(deps, body.slug)
  const id = randomUUID()
  await deps.workspaces.insert({
    ...newWorkspaceRow({
      id,
      organizationId: deps.organizationId,
      name: body.name,
      slug: body.slug,
      isDefault: false,
      createdBy,
      createdAt: deps.clock.now().toISOString(),
    }),
    ...toColumns(body),
  })
  deps.changeBus.publish('workspace', id)
  return toWorkspaceObject(await resolveWorkspace(deps, id))
}

async function updateWorkspace(
  deps: WorkspaceServiceDeps,
  idOrSlug: string,
  body: UpdateWorkspaceBody,
): Promise<Workspace> {
  checkResponseCacheTtl(body.cache_ttl_seconds, deps.maxCacheTtlSeconds)
  const workspace = await resolveWorkspace(deps, idOrSlug)
  if (body.slug !== undefined) await assertSlugFree(deps, body.slug, workspace.id)
  await deps.workspaces.update(workspace.id, { ...toColumns(body), updated_at: deps.clock.now().toISOString() })
  deps.changeBus.publish('workspace', workspace.id)
  return toWorkspaceObject(await resolveWorkspace(deps, workspace.id))
}

async function deleteWorkspace(deps: WorkspaceServiceDeps, idOrSlug: string, confirmDefault: boolean): Promise<void> {
  const { workspaces, changeBus } = deps
  const workspace = await resolveWorkspace(deps, idOrSlug)
  if (workspace.is_default === 1 && !confirmDefault) {
    throw new GatewayError(
      'invalid_request',
      `Workspace "${workspace.slug}" is the default workspace: repeat the request with ?confirm_default_workspace_deletion=true to delete it`,
    )
  }
  const activeKeys = await workspaces.countActiveKeys(workspace.id)
  if (activeKeys > 0) {
    throw new GatewayError(
      'conflict',
      `Workspace "${workspace.slug}" has ${activeKeys} active API key(s): disable or delete them first`,
    )
  }
  const successor = await findSuccessor(deps, workspace)
  const deletion = await workspaces.delete(workspace, successor.id)
  changeBus.publish('workspace', workspace.id)
  if (deletion.newDefaultWorkspaceId !== null) changeBus.publish('workspace', deletion.newDefaultWorkspaceId)
  for (const id of deletion.guardrailIds) changeBus.publish('guardrail', id)
  for (const hash of deletion.keyHashes) changeBus.publish('api_key', hash)
}

/** Where the deleted workspace's management keys go (and, for the default one, the next default). */
async function findSuccessor(deps: WorkspaceServiceDeps, workspace: WorkspaceRow): Promise<WorkspaceRow> {
  const { workspaces, organizationId } = deps
  const successor =
    workspace.is_default === 1
      ? (await workspaces.list(organizationId, 0, 2)).rows.find((row) => row.id !== workspace.id)
      : await workspaces.findDefault(organizationId)
  if (successor !== undefined) return successor
  throw new GatewayError(
    'conflict',
    `Workspace "${workspace.slug}" is the only workspace: create another workspace before deleting it`,
  )
}

async function listMembers(
  deps: WorkspaceServiceDeps,
  idOrSlug: string,
  offset: number,
  limit: number,
): Promise<Page<WorkspaceMember>> {
  const workspace = await resolveWorkspace(deps, idOrSlug)
  if (workspace.is_default === 1) {
    const { rows, total } = await deps.workspaces.listUsers(deps.organizationId, offset, limit)
    return { data: rows.map((user) => toImplicitMemberObject(workspace.id, user)), total_count: total }
  }
  const { rows, total } = await deps.workspaces.listMembers(workspace.id, offset, limit)
  return { data: rows.map(toMemberObject), total_count: total }
}

async function addMembers(
  deps: WorkspaceServiceDeps,
  idOrSlug: string,
  userIds: readonly string[],
): Promise<{ added_count: number; data: WorkspaceMember[] }> {
  const workspace = await resolveWorkspace(deps, idOrSlug)
  refuseOnDefault(workspace, 'add members to')
  const users = await assertUsersExist(deps, userIds)
  const existing = new Set((await deps.workspaces.findMembers(workspace.id, userIds)).map((member) => member.user_id))
  const now = deps.clock.now().toISOString()
  const rows = users
    .filter((user) => !existing.has(user.id))
    .map((user) => ({
      id: randomUUID(),
      workspace_id: workspace.id,
      user_id: user.id,
      role: workspaceRoleOf(user),
      created_at: now,
    }))
  await deps.workspaces.insertMembers(rows)
  if (rows.length > 0) deps.changeBus.publish('workspace', workspace.id)
  return { added_count: rows.length, data: rows.map(toMemberObject) }
}

async function removeMembers(
  deps: WorkspaceServiceDeps,
  idOrSlug: string,
  userIds: readonly string[],
): Promise<{ removed_count: number }> {
  const workspace = await resolveWorkspace(deps, idOrSlug)
  refuseOnDefault(workspace, 'remove members from')
  await assertUsersExist(deps, userIds)
  const owners = await deps.workspaces.findKeyOwners(workspace.id, userIds)
  if (owners.length > 0) {
    throw new GatewayError(
      'invalid_request',
      `Members ${owners.join(', ')} own active API keys in workspace "${workspace.slug}": disable or delete those keys first`,
      {
        metadata: { user_ids: owners },
      },
    )
  }
  const removed = await deps.workspaces.deleteMembers(workspace.id, userIds)
  if (removed > 0) deps.changeBus.publish('workspace', workspace.id)
  return { removed_count: removed }
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>
