// The `provider` routing preferences of a request (api-reference 15.1), as the router reads them.

export type SortBy = 'price' | 'throughput' | 'latency'

export interface ProviderPreferences {
  readonly allow_fallbacks?: boolean
  readonly require_parameters?: boolean
  readonly data_collection?: 'allow' | 'deny'
  readonly zdr?: boolean
  readonly order?: readonly string[]
  readonly only?: readonly string[]
  readonly ignore?: readonly string[]
  readonly sort?: SortBy | { readonly by: SortBy; readonly partition?: 'model' | 'none' }
  /** USD per million tokens (prompt, completion) and USD per request. */
  readonly max_price?: { readonly prompt?: number; readonly completion?: number; readonly request?: number }
}

export type RequestedServiceTier = 'auto' | 'default' | 'fast' | 'flex' | 'priority' | 'scale' | 'ultrafast' | null
