// Table types for kysely. Conventions that keep SQLite and PostgreSQL identical: ids are text (UUIDs or
// key hashes), timestamps are ISO 8601 UTC text with milliseconds, booleans are integers 0/1, JSON is
// text, money is text (decimal strings) or integer nano-dollars.

export interface OrganizationTable {
  id: string
  name: string
  created_at: string
}

export interface UserTable {
  id: string
  organization_id: string
  email: string
  name: string | null
  role: string
  created_at: string
}

export interface WorkspaceTable {
  id: string
  organization_id: string
  name: string
  slug: string
  description: string | null
  is_default: number
  created_by: string | null
  default_image_model: string | null
  default_text_model: string | null
  default_provider_sort: string | null
  disabled_server_tools: string | null
  include_byok_in_budgets: number
  io_logging_api_key_ids: string | null
  io_logging_sampling_rate: number
  is_data_discount_logging_enabled: number
  is_observability_broadcast_enabled: number
  is_observability_io_logging_enabled: number
  created_at: string
  updated_at: string | null
}

export interface WorkspaceMemberTable {
  id: string
  workspace_id: string
  user_id: string
  role: string
  created_at: string
}

export interface ApiKeyTable {
  hash: string
  kind: string
  name: string
  label: string
  organization_id: string
  workspace_id: string
  intern_id: string | null
  creator_user_id: string | null
  disabled: number
  expires_at: string | null
  limit_usd: string | null
  limit_reset: string | null
  include_byok_in_limit: number
  external_user: string | null
  created_at: string
  updated_at: string | null
  last_used_at: string | null
}

import type { ObservabilityDestinationTable, ObservabilityOutboxTable } from './tables/observability-tables.ts'

export interface Database {
  organizations: OrganizationTable
  users: UserTable
  workspaces: WorkspaceTable
  workspace_members: WorkspaceMemberTable
  api_keys: ApiKeyTable
  observability_destinations: ObservabilityDestinationTable
  observability_outbox: ObservabilityOutboxTable
}
