// The wire shapes the console reads, as the public API documents them (GET /api/v1/openapi.json).
export type LimitReset = 'daily' | 'weekly' | 'monthly'

export interface KeyUsage {
  readonly limit: number | null
  readonly limit_remaining: number | null
  readonly limit_reset: LimitReset | null
  readonly usage: number
  readonly usage_daily: number
  readonly usage_weekly: number
  readonly usage_monthly: number
}

export interface ApiKey extends KeyUsage {
  readonly hash: string
  readonly name: string
  readonly label: string
  readonly disabled: boolean
  readonly created_at: string
  readonly expires_at: string | null
  readonly last_used_at: string | null
  readonly workspace_id: string
  readonly include_byok_in_limit: boolean
  /** The key's own rate-limit rules (model null: every model). */
  readonly rate_limits: readonly KeyRateLimit[]
}

export interface KeyRateLimit {
  readonly id: string
  readonly model: string | null
  readonly requests_per_minute: number | null
  readonly tokens_per_minute: number | null
}

export interface CurrentKey extends KeyUsage {
  readonly label: string
  readonly is_management_key: boolean
  readonly workspace_id: string | null
  readonly expires_at: string | null
}

export interface ProviderResponse {
  readonly status: number | null
  readonly provider_name: string
  readonly endpoint_id: string | null
  readonly latency: number | null
}

export interface Generation {
  readonly id: string
  readonly created_at: string
  readonly model: string
  readonly provider_name: string | null
  readonly total_cost: number
  readonly latency: number | null
  readonly generation_time: number | null
  readonly finish_reason: string | null
  readonly native_finish_reason: string | null
  readonly tokens_prompt: number
  readonly tokens_completion: number
  readonly native_tokens_reasoning: number | null
  readonly native_tokens_cached: number | null
  readonly streamed: boolean
  readonly cancelled: boolean
  readonly is_byok: boolean
  readonly api_type: string
  readonly workspace_id: string
  readonly request_id: string | null
  readonly session_id: string | null
  /** The generation whose cached answer this one replayed (a response-cache hit). */
  readonly response_cache_source_id: string | null
  readonly external_user: string | null
  readonly user_agent: string | null
  readonly provider_responses: readonly ProviderResponse[]
}

export interface GenerationContent {
  readonly input: unknown
  readonly output: { readonly completion: unknown; readonly reasoning: unknown }
  readonly error: { readonly status: number | null; readonly message: string | null } | null
}

export interface ActivityRow {
  readonly date: string
  readonly model: string
  readonly provider_name: string
  readonly usage: number
  readonly byok_usage_inference: number
  readonly requests: number
  readonly prompt_tokens: number
  readonly completion_tokens: number
  readonly reasoning_tokens: number
}

export interface EndpointHealth {
  readonly provider: string
  readonly model: string
  readonly endpoint_id: string
  readonly circuit_state: string
  readonly requests_5m: number
  readonly error_rate_5m: number
  readonly latency_p50_ms: number | null
  readonly latency_p99_ms: number | null
}

export interface Pricing {
  readonly prompt: string
  readonly completion: string
  readonly request: string
}

export interface Model {
  readonly id: string
  readonly name: string
  readonly context_length: number | null
  readonly pricing: Pricing
}

export interface ModelEndpoint {
  readonly name: string
  readonly provider_name: string
  readonly tag: string
  readonly context_length: number | null
  readonly pricing: Pricing
}

export interface Workspace {
  readonly id: string
  readonly name: string
  readonly slug: string
  readonly description: string | null
  readonly created_at: string
  readonly default_guardrail_id: string
}

export interface Listed<T> {
  readonly data: readonly T[]
  readonly total_count?: number
}
