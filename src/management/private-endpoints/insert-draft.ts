// The first step of POST /private-endpoints: store the body as a draft, or, for an Idempotency-Key seen
// before, replay the endpoint that key created (refused when the body differs).
import { randomUUID } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import { assertEgressAllowed } from '../../http/egress-policy.ts'
import {
  credentialAssociatedData,
  decodePrivateEndpoint,
  encodePrivateEndpoint,
  type PrivateEndpointRecord,
} from '../../private-endpoints/private-endpoint-record.ts'
import { createFingerprint, resolveModel, resolveProvider } from './create-fields.ts'
import type { CreatePrivateEndpointBody } from './schema.ts'
import type { PrivateEndpointServiceDeps } from './service.ts'

type InsertDraftDeps = Pick<
  PrivateEndpointServiceDeps,
  | 'repository'
  | 'clock'
  | 'secretBox'
  | 'egress'
  | 'organizationId'
  | 'describeModel'
  | 'describeProvider'
  | 'familyName'
>

export async function insertDraft(
  deps: InsertDraftDeps,
  body: CreatePrivateEndpointBody,
  idempotencyKey: string | null,
): Promise<{ record: PrivateEndpointRecord; replayed: boolean }> {
  const { repository, organizationId } = deps
  const fingerprint = createFingerprint(body)
  if (idempotencyKey !== null) {
    const existing = await repository.findByIdempotencyKey(organizationId, idempotencyKey)
    if (existing !== undefined) return { record: replay(decodePrivateEndpoint(existing), fingerprint), replayed: true }
  }
  const record = await draftRecord(deps, body, idempotencyKey, fingerprint)
  try {
    await repository.insert(encodePrivateEndpoint(record))
  } catch (error) {
    const raced =
      idempotencyKey === null ? undefined : await repository.findByIdempotencyKey(organizationId, idempotencyKey)
    if (raced === undefined) throw error
    return { record: replay(decodePrivateEndpoint(raced), fingerprint), replayed: true }
  }
  return { record, replayed: false }
}

async function draftRecord(
  deps: InsertDraftDeps,
  body: CreatePrivateEndpointBody,
  idempotencyKey: string | null,
  fingerprint: string,
): Promise<PrivateEndpointRecord> {
  const model = resolveModel(body.model_permaslug, deps.describeModel)
  const provider = resolveProvider(body.provider_slug, deps.describeProvider, deps.familyName)
  const baseUrl = (await assertEgressAllowed(body.base_url, deps.egress)).toString().replace(/\/+$/, '')
  const id = randomUUID()
  const now = deps.clock.now().toISOString()
  return {
    id,
    organizationId: deps.organizationId,
    workspaceId: null,
    modelPermaslug: body.model_permaslug,
    modelName: model.name,
    providerSlug: body.provider_slug,
    providerName: provider.name,
    api: provider.api,
    upstreamModelId: body.upstream_model_id,
    baseUrl,
    declaredRegion: body.declared_region ?? null,
    declaredZdr: body.declared_zdr ?? null,
    pricing: { prompt: body.pricing.prompt, completion: body.pricing.completion },
    status: 'draft',
    sealedCredential:
      body.api_key === undefined ? null : deps.secretBox.seal(body.api_key, credentialAssociatedData(id)),
    validation: null,
    validatedAt: null,
    validatedWorkspaceId: null,
    validatedRevision: null,
    revision: 0,
    everActivated: false,
    idempotencyKey,
    idempotencyFingerprint: idempotencyKey === null ? null : fingerprint,
    createdAt: now,
    updatedAt: now,
  }
}

function replay(record: PrivateEndpointRecord, fingerprint: string): PrivateEndpointRecord {
  if (record.idempotencyFingerprint !== fingerprint) {
    throw new GatewayError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request; use a new key for a different endpoint',
      {
        metadata: { reason: 'idempotency_key_reused' },
      },
    )
  }
  return record
}
