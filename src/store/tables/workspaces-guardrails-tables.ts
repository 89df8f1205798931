// Tables of the workspaces and guardrails areas (migration 0002): workspace budgets, guardrails and the
// guardrail assignments to keys and members. Same conventions as database.ts.

export interface WorkspaceBudgetTable {
  id: string
  workspace_id: string
  /** daily | weekly | monthly | lifetime */
  interval: string
  /** USD, decimal string. */
  limit_usd: string
  created_at: string
  updated_at: string
}

export interface GuardrailTable {
  id: string
  organization_id: string
  workspace_id: string | null
  name: string
  description: string | null
  limit_usd: string | null
  reset_interval: string | null
  include_byok_in_budgets: number
  /** JSON arrays (text) or null. */
  allowed_models: string | null
  ignored_models: string | null
  allowed_providers: string | null
  ignored_providers: string | null
  allowed_data_regions: string | null
  content_filters: string | null
  content_filter_builtins: string | null
  /** Nullable booleans (0/1/null). */
  enforce_zdr: number | null
  enforce_zdr_anthropic: number | null
  enforce_zdr_openai: number | null
  enforce_zdr_google: number | null
  enforce_zdr_xai: number | null
  enforce_zdr_other: number | null
  enable_free_model_publication: number | null
  enable_free_model_training: number | null
  enable_paid_model_training: number | null
  created_at: string
  updated_at: string | null
}

export interface GuardrailKeyAssignmentTable {
  id: string
  guardrail_id: string
  /** Unique: a key holds at most one guardrail. */
  key_hash: string
  assigned_by: string | null
  created_at: string
}

export interface GuardrailMemberAssignmentTable {
  id: string
  guardrail_id: string
  /** Unique: a member holds at most one guardrail. */
  user_id: string
  organization_id: string
  assigned_by: string | null
  created_at: string
}

export interface WorkspacesGuardrailsTables {
  workspace_budgets: WorkspaceBudgetTable
  guardrails: GuardrailTable
  guardrail_key_assignments: GuardrailKeyAssignmentTable
  guardrail_member_assignments: GuardrailMemberAssignmentTable
}
