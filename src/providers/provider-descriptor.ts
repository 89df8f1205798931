// What the gateway knows about one provider API besides its wire format: each provider folder exports
// one descriptor and the registry lists it, so nothing outside the folder keeps a per-API table.
import type { ZdrFamily } from '../domain/inference/zdr-family.ts'
import type { EmbeddingsAdapter } from './embeddings-adapter.ts'
import type { ProviderAdapter, ProviderSettings } from './provider-adapter.ts'

/** An adapter, or a choice among adapters by upstream model and options (one cloud API that hosts several wire formats). */
export type AdapterChoice = ProviderAdapter | ((upstreamModelId: string, settings: ProviderSettings) => ProviderAdapter)

export interface ProviderDescriptor {
  readonly adapter: AdapterChoice
  /** Its embeddings translator, or null when the API has no embeddings endpoint. */
  readonly embeddings: EmbeddingsAdapter | null
  /** The provider name of a private endpoint whose provider_slug names this API rather than a configured provider. */
  readonly familyName: string
  /** The zero-data-retention rule family of its providers (a provider slugged `openai` or `xai` is that family). */
  readonly zdrFamily: ZdrFamily
  /** The free, authenticated model-list route `switchyard doctor` GETs, relative to the provider's base_url. */
  readonly listModelsPath: (settings: ProviderSettings) => string
}
