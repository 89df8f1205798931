// The three wire shapes of a private endpoint (api-reference §7.3): Summary (list), Managed (create,
// activate, enable, disable) and Full (get, update, pricing). The credential never appears.
import type { PrivateEndpointRecord } from '../../private-endpoints/private-endpoint-record.ts'
import type { FullWire, ManagedWire, SummaryWire } from './schema.ts'

export function toSummary(record: PrivateEndpointRecord): SummaryWire {
  return {
    id: record.id,
    status: record.status,
    model_permaslug: record.modelPermaslug,
    model_slug: record.modelPermaslug,
    model_name: record.modelName,
    provider_name: record.providerName,
    created_at: record.createdAt,
  }
}

export function toManaged(record: PrivateEndpointRecord): ManagedWire {
  return { ...toSummary(record), declared_region: record.declaredRegion, declared_zdr: record.declaredZdr }
}

export function toFull(record: PrivateEndpointRecord): FullWire {
  return {
    id: record.id,
    status: record.status,
    model_permaslug: record.modelPermaslug,
    model_slug: record.modelPermaslug,
    model_name: record.modelName,
    provider_name: record.providerName,
    provider_slug: record.providerSlug,
    base_url: record.baseUrl,
    upstream_model_id: record.upstreamModelId,
    declared_zdr: record.declaredZdr,
    declared_region: record.declaredRegion,
    pricing: { prompt: record.pricing.prompt, completion: record.pricing.completion },
  }
}
