// Generation records (metadata of every inference call) and their optional stored content.

export interface GenerationTable {
  id: string
  request_id: string | null
  organization_id: string
  workspace_id: string
  key_hash: string
  api_type: string
  dialect: string
  model: string
  provider: string | null
  upstream_model_id: string | null
  upstream_id: string | null
  streamed: number
  cancelled: number
  status: string
  finish_reason: string | null
  native_finish_reason: string | null
  tokens_prompt: number
  tokens_completion: number
  tokens_cached: number
  tokens_reasoning: number
  cost_nano: string
  unbilled_excess_nano: string
  response_cache_source_id: string | null
  is_byok: number
  latency_ms: number | null
  generation_time_ms: number | null
  session_id: string | null
  end_user: string | null
  preset: string | null
  service_tier: string | null
  attempts: string
  error_status: number | null
  error_message: string | null
  http_referer: string | null
  user_agent: string | null
  created_at: string
}

export interface GenerationContentTable {
  generation_id: string
  workspace_id: string
  input: string
  output_completion: string | null
  output_reasoning: string | null
  error: string | null
  created_at: string
}

/**
 * Sums of the generation records of one UTC day per workspace, key, model, provider and endpoint (migration
 * 0014), kept by the group commit that writes the records (`activity-rollup.ts`). Counters are 64-bit
 * integers: numbers on SQLite, decimal strings on PostgreSQL.
 */
export interface GenerationDailyActivityTable {
  organization_id: string
  day: string
  workspace_id: string
  key_hash: string
  model: string
  /** '' when the record has none. */
  provider: string
  /** The last attempt's endpoint, '' when the request reached none. */
  endpoint_id: string
  requests: number | string
  prompt_tokens: number | string
  completion_tokens: number | string
  reasoning_tokens: number | string
  usage_nano: number | string
  byok_usage_nano: number | string
}

/**
 * The same sums per organization, UTC day, model, provider and endpoint (across workspaces and keys),
 * kept with them (migration 0015).
 */
export type GenerationDailyTotalsTable = Omit<GenerationDailyActivityTable, 'workspace_id' | 'key_hash'>

/** The same sums per workspace as well (across its keys), kept with them (migration 0017). */
export type GenerationDailyWorkspaceTotalsTable = Omit<GenerationDailyActivityTable, 'key_hash'>

export interface GenerationTables {
  generations: GenerationTable
  generation_contents: GenerationContentTable
  generation_daily_activity: GenerationDailyActivityTable
  generation_daily_totals: GenerationDailyTotalsTable
  generation_daily_workspace_totals: GenerationDailyWorkspaceTotalsTable
}
