// What a call asks of routing (its models and preferences), and one endpoint the plan may try.
import type { EndpointEntry, ModelEntry } from '../../domain/catalog.ts'
import type { ProviderPreferences, RequestedServiceTier, SortBy } from './provider-preferences.ts'

export interface RouteRequest {
  /** The primary model first, then the `models` fallbacks, duplicates removed. */
  readonly models: readonly string[]
  readonly kind: 'text' | 'embedding'
  readonly provider?: ProviderPreferences | undefined
  readonly serviceTier?: RequestedServiceTier | undefined
  readonly sessionKey?: string | null | undefined
  /** Parameters the request uses, checked when `require_parameters` is true. */
  readonly usedParameters?: readonly string[] | undefined
  /** The workspace's default_provider_sort when the request gives none. */
  readonly defaultSort?: SortBy | null | undefined
  /** The caller's workspace: its active private endpoints join the candidates. */
  readonly workspaceId?: string | undefined
}

export interface RouteCandidate {
  readonly model: ModelEntry
  readonly endpoint: EndpointEntry
}
