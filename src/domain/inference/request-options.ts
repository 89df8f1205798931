// Request-level options a client dialect decodes beside the canonical call: routing preferences,
// grouping and tracing keys, server-tool loop limits, cache controls. The inference layer reads them;
// none of them is sent upstream as is (the call carries what the upstream needs).

/** `fast` aliases `priority`; `ultrafast` prefers ultrafast endpoints, then priority, then default. */
export type ServiceTier = 'auto' | 'default' | 'fast' | 'flex' | 'priority' | 'scale' | 'ultrafast'

export const serviceTiers: readonly ServiceTier[] = [
  'auto',
  'default',
  'fast',
  'flex',
  'priority',
  'scale',
  'ultrafast',
]

/** Deprecated routing alias: `fallback` -> provider.sort.partition "model", `sort` -> "none". */
export type RouteAlias = 'fallback' | 'sort'

export type StopServerToolsCondition =
  | { readonly type: 'step_count_is'; readonly step_count: number }
  | { readonly type: 'max_cost'; readonly max_cost_in_dollars: number }
  | { readonly type: 'finish_reason_is'; readonly reason: string }
  | { readonly type: 'has_tool_call'; readonly tool_name: string }
  | { readonly type: 'max_tokens_used'; readonly max_tokens: number }

export interface PluginSetting {
  readonly id: string
  readonly [setting: string]: unknown
}

export interface PromptCacheControls {
  /** `prompt_cache_options`: request-level explicit caching. */
  readonly options?: { readonly mode: 'explicit'; readonly ttl?: string | null }
  /** `cache_control`: automatic caching (Anthropic style). */
  readonly cache_control?: { readonly type: 'ephemeral'; readonly ttl?: '5m' | '1h' }
  /** `prompt_cache_key`. */
  readonly key?: string
}

export interface RequestOptions {
  /** The `provider` routing preferences as sent; the schema checked their shape, the router reads them. */
  readonly provider?: Readonly<Record<string, unknown>>
  /** Sticky-routing and grouping key (max 256); the body wins over the `x-session-id` header. */
  readonly session_id?: string
  /** End-user identifier (max 256). */
  readonly user?: string
  readonly service_tier?: ServiceTier
  /** At most 16 pairs; keys at most 64 characters without brackets; values at most 512. */
  readonly metadata?: Readonly<Record<string, string>>
  /** `trace_id`, `trace_name`, `span_name`, `generation_name`, `parent_span_id` and custom keys. */
  readonly trace?: Readonly<Record<string, unknown>>
  readonly plugins?: readonly PluginSetting[]
  /** Chat Completions `transforms` (e.g. `middle-out`). */
  readonly transforms?: readonly string[]
  readonly route?: RouteAlias
  /** A preset slug named by the body (`preset`). */
  readonly preset?: string
  readonly include?: readonly string[]
  readonly modalities?: readonly ('text' | 'image')[]
  readonly image_config?: Readonly<Record<string, unknown>>
  readonly prompt_cache?: PromptCacheControls
  /** Streaming only: emit the upstream body as a debug event. */
  readonly debug?: { readonly echo_upstream_body?: boolean }
  /** Max server-tool agent steps, 1..30 (default 30); ignored when `stop_server_tools_when` is set. */
  readonly max_tool_calls: number
  readonly stop_server_tools_when?: readonly StopServerToolsCondition[]
  /** Chat `reasoning.exclude`: the model may reason, but the response leaves reasoning out. */
  readonly exclude_reasoning?: boolean
  /** Chat Completions `stream_options` as sent (usage is always reported). */
  readonly stream_options?: Readonly<Record<string, unknown>>
}

export const defaultMaxToolCalls = 30

/** Server tools the gateway runs itself, named in requests as `openrouter:<name>`. */
export type ServerToolName =
  | 'advisor'
  | 'apply_patch'
  | 'bash'
  | 'datetime'
  | 'fusion'
  | 'image_generation'
  | 'experimental__search_models'
  | 'shell'
  | 'subagent'
  | 'tool_search'
  | 'web_fetch'
  | 'web_search'

export const serverToolNames: readonly ServerToolName[] = [
  'advisor',
  'apply_patch',
  'bash',
  'datetime',
  'fusion',
  'image_generation',
  'experimental__search_models',
  'shell',
  'subagent',
  'tool_search',
  'web_fetch',
  'web_search',
]

export const serverToolPrefix = 'openrouter:'
