// Table types for kysely. Conventions that keep SQLite and PostgreSQL identical: ids are text (UUIDs or
// key hashes), timestamps are ISO 8601 UTC text with milliseconds, booleans are integers 0/1, JSON is
// text, money is text (decimal strings) or integer nano-dollars.
import type { GenerationTables } from './tables/generation-tables.ts'
import type { CreditGrantTable, LedgerEntryTable } from './tables/ledger-credits-tables.ts'
import type {
  InternIdempotencyTable,
  InternTable,
  VaultSecretTable,
  VaultTable,
} from './tables/vault-interns-tables.ts'
import type { EndUserTable, PresetTable, PresetVersionTable } from './tables/end-users-presets-tables.ts'

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
  /** Response caching for the workspace's keys: 1 on, 0 off, null left to the request (migration 0016). */
  response_cache_enabled: number | null
  response_cache_ttl_seconds: number | null
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
  /** Response caching for the key's calls: 1 on, 0 off, null left to the request (migration 0016). */
  response_cache_enabled: number | null
  response_cache_ttl_seconds: number | null
  created_at: string
  updated_at: string | null
  last_used_at: string | null
  /** SHA-256 of the partner-supplied `external.api_key` (migration 0006); never returned. */
  external_api_key_hash?: string | null
}

import type { ObservabilityDestinationTable, ObservabilityOutboxTable } from './tables/observability-tables.ts'
import type { BatchItemTable, BatchTable } from './tables/batch-tables.ts'

export interface Database extends GenerationTables {
  organizations: OrganizationTable
  users: UserTable
  workspaces: WorkspaceTable
  workspace_members: WorkspaceMemberTable
  api_keys: ApiKeyTable
  ledger_entries: LedgerEntryTable
  credit_grants: CreditGrantTable
  vaults: VaultTable
  vault_secrets: VaultSecretTable
  interns: InternTable
  intern_idempotency: InternIdempotencyTable
  workspace_budgets: WorkspacesGuardrailsTables['workspace_budgets']
  guardrails: WorkspacesGuardrailsTables['guardrails']
  guardrail_key_assignments: WorkspacesGuardrailsTables['guardrail_key_assignments']
  guardrail_member_assignments: WorkspacesGuardrailsTables['guardrail_member_assignments']
  end_users: EndUserTable
  presets: PresetTable
  preset_versions: PresetVersionTable
  observability_destinations: ObservabilityDestinationTable
  observability_outbox: ObservabilityOutboxTable
  private_endpoints: PrivateEndpointTable
  batches: BatchTable
  batch_items: BatchItemTable
  rate_limit_rules: RateLimitRuleTable
}

import type { WorkspacesGuardrailsTables } from './tables/workspaces-guardrails-tables.ts'
import type { PrivateEndpointTable } from './tables/private-endpoints-tables.ts'
import type { RateLimitRuleTable } from './tables/rate-limit-tables.ts'
