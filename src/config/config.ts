// The effective configuration: the YAML file's sections with defaults applied, plus what the
// environment decides. Built once by loadConfig and frozen.
import type { ModelConfig, ProviderConfig } from './schema.ts'
import type { ServerToolsSetting } from './server-tools-config.ts'

export type LogLevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

export interface RateLimitSetting {
  readonly requests_per_minute: number | null
  readonly tokens_per_minute: number | null
}

export interface Config {
  readonly server: {
    readonly host: string
    readonly port: number
    readonly regional_hostnames: readonly string[]
    readonly body_limit_bytes: number
    readonly trust_proxy: boolean
  }
  /**
   * Who may read /metrics: `require_management_key` (default false) asks for a management key; `port`
   * (default null: the main port) serves it on a listener of its own at `host` (default server.host)
   * and no longer on the main port.
   */
  readonly metrics: {
    readonly require_management_key: boolean
    readonly port: number | null
    readonly host: string
  }
  readonly store: {
    readonly database_url: string
    readonly redis_url: string | null
    readonly data_dir: string
  }
  readonly secrets: {
    readonly admin_key: string | null
    readonly master_key: string | null
  }
  readonly log_level: LogLevelName
  readonly config_path: string | null
  /** The web console's built assets (index.html, console.js, console.css), served at /console. */
  readonly console: { readonly assets_dir: string }
  readonly egress: { readonly allow_private_networks: boolean }
  readonly server_tools: ServerToolsSetting
  readonly interns: { readonly workspaces: readonly string[]; readonly domain?: string; readonly runtime?: boolean }
  readonly vault: { readonly writes_disabled: boolean }
  readonly credits: { readonly enforce: boolean }
  /** Largest embeddings input per request, in characters summed over inputs (413 above it). */
  readonly embeddings: { readonly max_input_chars: number }
  /** Vendor namespace (`typesafe/`) that bare System One model ids map onto. */
  readonly systemone: { readonly namespace: string }
  /** The model that checks answers against alignment-plugin rules; null: each request's own model. */
  readonly alignment: { readonly evaluator_model: string | null }
  /** Batch execution (src/batches/): worker poll and concurrency, lease, submission limits, callback signing secret. */
  readonly batches: {
    readonly poll_interval_ms: number
    readonly concurrency: number
    readonly per_batch_concurrency: number
    readonly lease_ms: number
    readonly max_body_bytes: number
    readonly max_requests: number
    readonly webhook_secret: string | null
  }
  readonly rate_limits: {
    readonly per_key: RateLimitSetting
    readonly per_organization: RateLimitSetting
    readonly management: { readonly requests_per_minute: number | null }
  }
  readonly providers: readonly ProviderConfig[]
  readonly models: readonly ModelConfig[]
  /** Provider credentials and base URLs found in the environment (OPENAI_API_KEY, OLLAMA_BASE_URL, ...). */
  readonly provider_env: Readonly<Record<string, string>>
  /** Outbox delivery tuning; absent keys take the worker's defaults. */
  readonly observability: { readonly delivery: ObservabilityDeliverySetting }
  /** Stored generation content (input/output) is deleted after this many days. */
  readonly generations: { readonly content_retention_days: number }
  /**
   * `write_behind: false` (the default): an answer's last bytes leave once its ledger row and generation
   * record are committed (group commit). `true`: they are written within ~200 ms after, and a crash loses
   * what was not written yet.
   */
  readonly durability: { readonly write_behind: boolean }
  /** Response caching (docs/caching.md): TTL bounds, entry size bound and the memory store's bounds. */
  readonly cache: ResponseCacheSetting
}

export interface ResponseCacheSetting {
  /** false: the gateway never caches, whatever requests, keys or workspaces ask. */
  readonly enabled: boolean
  /** TTL of an entry when neither the request, the key nor the workspace names one. */
  readonly default_ttl_seconds: number
  /** Largest TTL a request, key or workspace may ask for (a larger X-OpenRouter-Cache-TTL is refused). */
  readonly max_ttl_seconds: number
  /** Answers whose stored form is larger than this are not cached. */
  readonly max_entry_bytes: number
  /** The memory store (no REDIS_URL) evicts its least recently used entries above either bound. */
  readonly memory_max_bytes: number
  readonly memory_max_entries: number
}

export interface ObservabilityDeliverySetting {
  readonly direct?: boolean
  readonly batch_delay_ms?: number
  readonly spill_after_ms?: number
  readonly poll_interval_ms?: number
  readonly max_attempts?: number
  readonly backoff_base_ms?: number
  readonly backoff_max_ms?: number
  readonly concurrency_per_destination?: number
  readonly lease_ms?: number
  readonly request_timeout_ms?: number
  readonly batch_size?: number
}
