// A private endpoint as the router sees it: an EndpointEntry whose provider is the customer's host,
// priced at the negotiated rates. Its id (`private:<uuid>`) never collides with a catalog endpoint, so
// breaker, stats and sticky sessions keep it apart.
import { parsePricing } from '../../domain/money.ts'
import type { PrivateEndpointRecord } from '../../private-endpoints/private-endpoint-record.ts'
import type { EndpointEntry, ModelEntry } from '../../domain/catalog.ts'
import { defaultParameters } from './default-parameters.ts'

export const privateEndpointTimeoutMs = 120_000

export function toPrivateEndpointEntry(
  record: PrivateEndpointRecord,
  apiKey: string | null,
  timeoutMs = privateEndpointTimeoutMs,
): EndpointEntry {
  return {
    id: `private:${record.id}`,
    modelSlug: record.modelPermaslug,
    provider: {
      slug: record.providerSlug,
      name: record.providerName,
      api: record.api,
      baseUrl: record.baseUrl,
      apiKey,
      headers: {},
      dataCollection: 'deny',
      zdr: record.declaredZdr === true,
      region: record.declaredRegion ?? 'global',
      timeoutMs,
      source: 'private-endpoint',
    },
    upstreamModelId: record.upstreamModelId,
    pricingText: record.pricing,
    pricing: parsePricing(record.pricing),
    contextLength: 128_000,
    maxOutputTokens: null,
    serviceTier: 'default',
    supportedParameters: defaultParameters('text', record.api),
  }
}

/** The model a private endpoint introduces when the catalog does not know its slug. */
export function introducedModel(record: PrivateEndpointRecord): Omit<ModelEntry, 'endpoints'> {
  return {
    slug: record.modelPermaslug,
    name: record.modelName,
    kind: 'text',
    description: `Served by a private endpoint (${record.providerName})`,
    contextLength: 128_000,
    inputModalities: ['text'],
    outputModalities: ['text'],
  }
}
