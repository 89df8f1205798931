// Store rows -> wire objects of api-reference §4.
import { defaultGuardrailId, deterministicUuid } from '../../guardrails/default-guardrail-id.ts'
import type {
  UserRow,
  WorkspaceBudgetRow,
  WorkspaceMemberRow,
  WorkspaceRow,
} from '../../store/repositories/workspaces-repository.ts'
import type { Workspace, WorkspaceBudget, WorkspaceMember } from './schema.ts'

function parseList<T>(text: string | null): T[] | null {
  return text === null ? null : (JSON.parse(text) as T[])
}

export function toWorkspaceObject(row: WorkspaceRow): Workspace {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: row.created_by,
    default_guardrail_id: defaultGuardrailId(row.id),
    default_image_model: row.default_image_model,
    default_text_model: row.default_text_model,
    default_provider_sort: row.default_provider_sort,
    disabled_server_tools: parseList<string>(row.disabled_server_tools),
    include_byok_in_budgets: row.include_byok_in_budgets === 1,
    io_logging_api_key_ids: parseList<number>(row.io_logging_api_key_ids),
    io_logging_sampling_rate: row.io_logging_sampling_rate,
    is_data_discount_logging_enabled: row.is_data_discount_logging_enabled === 1,
    is_observability_broadcast_enabled: row.is_observability_broadcast_enabled === 1,
    is_observability_io_logging_enabled: row.is_observability_io_logging_enabled === 1,
    cache_enabled: row.response_cache_enabled === null ? null : row.response_cache_enabled === 1,
    cache_ttl_seconds: row.response_cache_ttl_seconds,
  }
}

/** Workspace role of an organization user: owners and admins are workspace admins. */
export function workspaceRoleOf(user: UserRow): 'admin' | 'member' {
  return user.role === 'member' ? 'member' : 'admin'
}

export function toMemberObject(row: WorkspaceMemberRow): WorkspaceMember {
  return {
    id: row.id,
    user_id: row.user_id,
    workspace_id: row.workspace_id,
    role: row.role === 'admin' ? 'admin' : 'member',
    created_at: row.created_at,
  }
}

/** Every organization user is an implicit member of the default workspace; the member id is derived. */
export function toImplicitMemberObject(workspaceId: string, user: UserRow): WorkspaceMember {
  return {
    id: deterministicUuid('switchyard:implicit-workspace-member', `${workspaceId}/${user.id}`),
    user_id: user.id,
    workspace_id: workspaceId,
    role: workspaceRoleOf(user),
    created_at: user.created_at,
  }
}

export function toBudgetObject(row: WorkspaceBudgetRow): WorkspaceBudget {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    limit_usd: Number(row.limit_usd),
    reset_interval: row.interval === 'lifetime' ? null : (row.interval as 'daily' | 'weekly' | 'monthly'),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
