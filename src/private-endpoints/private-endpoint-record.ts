// A private endpoint as the gateway works with it, decoded from its row. The credential stays sealed
// here; only the cache and the validator open it, just before an upstream call.
import type { EndpointValidation } from '../domain/endpoint-validation.ts'
import type { ProviderApi } from '../domain/inference/provider-api.ts'
import type { PrivateEndpointRow } from '../store/tables/private-endpoints-tables.ts'

export type PrivateEndpointStatus = 'draft' | 'active' | 'disabled'
export type DeclaredRegion = 'global' | 'europe' | 'us'

export interface PrivateEndpointRecord {
  readonly id: string
  readonly organizationId: string
  readonly workspaceId: string | null
  readonly modelPermaslug: string
  readonly modelName: string
  readonly providerSlug: string
  readonly providerName: string
  readonly api: ProviderApi
  readonly upstreamModelId: string
  readonly baseUrl: string
  readonly declaredRegion: DeclaredRegion | null
  readonly declaredZdr: boolean | null
  readonly pricing: { readonly prompt: string; readonly completion: string }
  readonly status: PrivateEndpointStatus
  readonly sealedCredential: string | null
  readonly validation: EndpointValidation | null
  readonly validatedAt: string | null
  readonly validatedWorkspaceId: string | null
  readonly validatedRevision: number | null
  readonly revision: number
  readonly everActivated: boolean
  readonly idempotencyKey: string | null
  readonly idempotencyFingerprint: string | null
  readonly createdAt: string
  readonly updatedAt: string
}

/** Associated data binding a sealed credential to its endpoint (a ciphertext copied elsewhere fails to open). */
export function credentialAssociatedData(endpointId: string): string {
  return `private-endpoint:${endpointId}`
}

export function decodePrivateEndpoint(row: PrivateEndpointRow): PrivateEndpointRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    workspaceId: row.workspace_id,
    modelPermaslug: row.model_permaslug,
    modelName: row.model_name,
    providerSlug: row.provider_slug,
    providerName: row.provider_name,
    api: row.api as ProviderApi,
    upstreamModelId: row.upstream_model_id,
    baseUrl: row.base_url,
    declaredRegion: row.declared_region as DeclaredRegion | null,
    declaredZdr: row.declared_zdr === null ? null : row.declared_zdr === 1,
    pricing: { prompt: row.pricing_prompt, completion: row.pricing_completion },
    status: row.status as PrivateEndpointStatus,
    sealedCredential: row.credential,
    validation: row.validation === null ? null : (JSON.parse(row.validation) as EndpointValidation),
    validatedAt: row.validated_at,
    validatedWorkspaceId: row.validated_workspace_id,
    validatedRevision: row.validated_revision === null ? null : Number(row.validated_revision),
    revision: Number(row.revision),
    everActivated: row.ever_activated === 1,
    idempotencyKey: row.idempotency_key,
    idempotencyFingerprint: row.idempotency_fingerprint,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export function encodePrivateEndpoint(record: PrivateEndpointRecord): PrivateEndpointRow {
  return {
    id: record.id,
    organization_id: record.organizationId,
    workspace_id: record.workspaceId,
    model_permaslug: record.modelPermaslug,
    model_name: record.modelName,
    provider_slug: record.providerSlug,
    provider_name: record.providerName,
    api: record.api,
    upstream_model_id: record.upstreamModelId,
    base_url: record.baseUrl,
    declared_region: record.declaredRegion,
    declared_zdr: record.declaredZdr === null ? null : record.declaredZdr ? 1 : 0,
    pricing_prompt: record.pricing.prompt,
    pricing_completion: record.pricing.completion,
    status: record.status,
    credential: record.sealedCredential,
    validation: record.validation === null ? null : JSON.stringify(record.validation),
    validated_at: record.validatedAt,
    validated_workspace_id: record.validatedWorkspaceId,
    validated_revision: record.validatedRevision,
    revision: record.revision,
    ever_activated: record.everActivated ? 1 : 0,
    idempotency_key: record.idempotencyKey,
    idempotency_fingerprint: record.idempotencyFingerprint,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  }
}
