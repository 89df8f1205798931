// The adapter that speaks to an endpoint: its provider's API, chosen by upstream model where the API
// hosts several wire formats.
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { ProviderAdapter } from '../../providers/provider-adapter.ts'
import { adapterFor } from '../../providers/registry.ts'

export function endpointAdapter(endpoint: EndpointEntry): ProviderAdapter {
  return adapterFor(endpoint.provider.api, endpoint.upstreamModelId, endpoint.provider)
}
