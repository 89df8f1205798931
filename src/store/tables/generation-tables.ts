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

export interface GenerationTables {
  generations: GenerationTable
  generation_contents: GenerationContentTable
}
