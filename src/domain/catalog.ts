// The model catalog held in memory: providers, models and their endpoints with parsed prices. Built
// once from the built-in presets and the config file; routing reads it with no store access.
import type { Pricing, PricingText } from './money.ts'
import type { ProviderApi } from './inference/provider-api.ts'

export type DataRegion = 'global' | 'europe' | 'us'
export type ServiceTier = 'default' | 'priority' | 'flex' | 'ultrafast'

/** One key of a provider's weighted credential pool. */
export interface ProviderCredential {
  /** Unique within the provider: the configured name, or `key-<n>` (1-based). */
  readonly name: string
  readonly apiKey: string
  readonly weight: number
  /** The credential's own limits (shared by every instance through the rate limiter); null: none. */
  readonly requestsPerMinute: number | null
  readonly tokensPerMinute: number | null
}

/** Same-endpoint retries with exponential backoff and full jitter (absent: none). */
export interface ProviderRetry {
  /** Attempts at the same endpoint in all, at least 2. */
  readonly maxAttempts: number
  readonly baseMs: number
  readonly maxMs: number
}

export interface ProviderEntry {
  readonly slug: string
  readonly name: string
  readonly api: ProviderApi
  readonly baseUrl: string
  readonly apiKey: string | null
  /** A weighted pool of keys used instead of `apiKey` (absent: the one `apiKey`). */
  readonly credentials?: readonly ProviderCredential[]
  readonly retry?: ProviderRetry
  readonly headers: Readonly<Record<string, string>>
  /** API-specific settings (region, project, api_version, ...), each read by its adapter; absent = none. */
  readonly options?: Readonly<Record<string, string>>
  readonly dataCollection: 'allow' | 'deny'
  readonly zdr: boolean
  readonly region: DataRegion
  readonly timeoutMs: number
  readonly source: 'preset' | 'config' | 'private-endpoint'
}

export interface EndpointEntry {
  /** Stable id: `<provider>/<upstream model id>`. */
  readonly id: string
  readonly modelSlug: string
  readonly provider: ProviderEntry
  readonly upstreamModelId: string
  readonly pricingText: PricingText
  readonly pricing: Pricing
  readonly contextLength: number
  readonly maxOutputTokens: number | null
  readonly serviceTier: ServiceTier
  readonly supportedParameters: readonly string[]
}

export interface ModelEntry {
  readonly slug: string
  readonly name: string
  readonly kind: 'text' | 'embedding'
  readonly description: string
  readonly contextLength: number
  readonly inputModalities: readonly string[]
  readonly outputModalities: readonly string[]
  readonly endpoints: readonly EndpointEntry[]
}

export class Catalog {
  readonly #models: ReadonlyMap<string, ModelEntry>
  readonly #providers: ReadonlyMap<string, ProviderEntry>

  constructor(models: readonly ModelEntry[], providers: readonly ProviderEntry[]) {
    this.#models = new Map(models.map((model) => [model.slug, model]))
    this.#providers = new Map(providers.map((provider) => [provider.slug, provider]))
  }

  model(slug: string): ModelEntry | undefined {
    return this.#models.get(slug)
  }

  provider(slug: string): ProviderEntry | undefined {
    return this.#providers.get(slug)
  }

  models(): ModelEntry[] {
    return [...this.#models.values()].sort((a, b) => a.slug.localeCompare(b.slug))
  }

  providers(): ProviderEntry[] {
    return [...this.#providers.values()].sort((a, b) => a.slug.localeCompare(b.slug))
  }
}
