// Private endpoints: create (with Idempotency-Key, optionally validate + activate in one call), list,
// get, update drafts, delete, validate, activate, disable, enable, reprice, set the credential. Every
// change that affects routing is announced on the change bus and applied to the routing cache before
// the call returns, so the next request sees it.
import { randomUUID } from 'node:crypto'
import { GatewayError, isGatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { EndpointValidation } from '../../domain/endpoint-validation.ts'
import type { ProviderApi } from '../../domain/inference/provider-api.ts'
import type { ChangeBus } from '../../events/change-bus.ts'
import { assertEgressAllowed, type EgressPolicy } from '../../http/egress-policy.ts'
import type { SecretBox } from '../../vault/secret-box.ts'
import type { PrivateEndpointsRepository } from '../../store/repositories/private-endpoints-repository.ts'
import {
  credentialAssociatedData,
  decodePrivateEndpoint,
  encodePrivateEndpoint,
  type PrivateEndpointRecord,
} from '../../private-endpoints/private-endpoint-record.ts'
import { activationWorkspace, assertDraft, assertStatus, withChange } from './lifecycle.ts'
import { createFingerprint, resolveModel, resolveProvider } from './create-fields.ts'
import { toFull, toManaged, toSummary } from './endpoint-wire.ts'
import type {
  CreatePrivateEndpointBody,
  FullWire,
  ManagedWire,
  PricingInput,
  SummaryWire,
  UpdatePrivateEndpointBody,
} from './schema.ts'

export interface PrivateEndpointServiceDeps {
  readonly repository: PrivateEndpointsRepository
  readonly clock: Clock
  readonly secretBox: SecretBox
  readonly changeBus: ChangeBus
  readonly egress: EgressPolicy
  readonly organizationId: string
  readonly describeModel: (slug: string) => { readonly name: string; readonly kind: 'text' | 'embedding' } | undefined
  readonly describeProvider: (slug: string) => { readonly name: string; readonly api: ProviderApi } | undefined
  /** The workspace's id for an id or slug, or undefined when there is none. */
  readonly resolveWorkspace: (idOrSlug: string) => Promise<string | undefined>
  /** Runs the checks against the endpoint with the given credential (throws GatewayError('timeout')). */
  readonly checkEndpoint: (record: PrivateEndpointRecord, apiKey: string | null) => Promise<EndpointValidation>
  /** Resolves once the routing cache has applied every change announced so far. */
  readonly changesApplied: () => Promise<void>
}

/** What POST /private-endpoints answers. */
export type CreateOutcome =
  | { readonly kind: 'draft'; readonly status: 200 | 201; readonly endpoint: ManagedWire }
  | {
      readonly kind: 'activated'
      readonly status: 200 | 201
      readonly endpoint: ManagedWire
      readonly validation: EndpointValidation | null
    }
  | {
      readonly kind: 'failed'
      readonly error: GatewayError
      readonly endpoint: ManagedWire
      readonly validation: EndpointValidation | null
    }

export function createPrivateEndpointService(deps: PrivateEndpointServiceDeps) {
  const { repository, clock } = deps

  async function load(id: string): Promise<PrivateEndpointRecord> {
    const row = await repository.find(id)
    if (row === undefined || row.organization_id !== deps.organizationId)
      throw new GatewayError('not_found', `Private endpoint ${id} not found`)
    return decodePrivateEndpoint(row)
  }

  async function save(next: PrivateEndpointRecord, previous: PrivateEndpointRecord): Promise<PrivateEndpointRecord> {
    if (!(await repository.update(encodePrivateEndpoint(next), previous.revision))) {
      throw new GatewayError(
        'conflict',
        `Private endpoint ${previous.id} changed while this request ran; read it again and retry`,
      )
    }
    await announce(next.id)
    return next
  }

  async function announce(id: string): Promise<void> {
    deps.changeBus.publish('private_endpoint', id)
    await deps.changesApplied()
  }

  async function workspaceOrThrow(idOrSlug: string): Promise<string> {
    const id = await deps.resolveWorkspace(idOrSlug)
    if (id === undefined)
      throw new GatewayError('not_found', `Workspace ${idOrSlug} does not exist`, {
        metadata: { reason: 'workspace_not_found' },
      })
    return id
  }

  function openCredential(record: PrivateEndpointRecord): string | null {
    if (record.sealedCredential === null) return null
    try {
      return deps.secretBox.openText(record.sealedCredential, credentialAssociatedData(record.id))
    } catch {
      throw new GatewayError(
        'unprocessable',
        `The stored credential of private endpoint ${record.id} cannot be decrypted (was the master key changed?); PUT /private-endpoints/${record.id}/credential again`,
        { metadata: { reason: 'key_decryption_failed' } },
      )
    }
  }

  async function validate(
    record: PrivateEndpointRecord,
    workspaceId: string,
  ): Promise<{ record: PrivateEndpointRecord; validation: EndpointValidation }> {
    await assertEgressAllowed(record.baseUrl, deps.egress).catch((error: unknown) => {
      throw isGatewayError(error)
        ? new GatewayError('invalid_request', error.message, { metadata: { reason: 'invalid_base_url' } })
        : error
    })
    const validation = await deps.checkEndpoint(record, openCredential(record))
    const now = clock.now().toISOString()
    const next: PrivateEndpointRecord = {
      ...record,
      validation,
      validatedAt: now,
      validatedWorkspaceId: workspaceId,
      validatedRevision: record.revision + 1,
      revision: record.revision + 1,
      updatedAt: now,
    }
    const saved = await repository.update(encodePrivateEndpoint(next), record.revision)
    return { record: saved ? next : record, validation }
  }

  async function activate(record: PrivateEndpointRecord): Promise<PrivateEndpointRecord> {
    const now = clock.now()
    const workspaceId = activationWorkspace(record, now.getTime())
    return save(
      {
        ...record,
        status: 'active',
        workspaceId,
        everActivated: true,
        revision: record.revision + 1,
        updatedAt: now.toISOString(),
      },
      record,
    )
  }

  async function insertDraft(
    body: CreatePrivateEndpointBody,
    idempotencyKey: string | null,
  ): Promise<{ record: PrivateEndpointRecord; replayed: boolean }> {
    const fingerprint = createFingerprint(body)
    if (idempotencyKey !== null) {
      const existing = await repository.findByIdempotencyKey(deps.organizationId, idempotencyKey)
      if (existing !== undefined)
        return { record: replay(decodePrivateEndpoint(existing), fingerprint), replayed: true }
    }
    const model = resolveModel(body.model_permaslug, deps.describeModel)
    const provider = resolveProvider(body.provider_slug, deps.describeProvider)
    const baseUrl = (await assertEgressAllowed(body.base_url, deps.egress)).toString().replace(/\/+$/, '')
    const id = randomUUID()
    const now = clock.now().toISOString()
    const record: PrivateEndpointRecord = {
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
    try {
      await repository.insert(encodePrivateEndpoint(record))
    } catch (error) {
      const raced =
        idempotencyKey === null ? undefined : await repository.findByIdempotencyKey(deps.organizationId, idempotencyKey)
      if (raced === undefined) throw error
      return { record: replay(decodePrivateEndpoint(raced), fingerprint), replayed: true }
    }
    return { record, replayed: false }
  }

  async function activateNew(record: PrivateEndpointRecord, workspaceId: string): Promise<CreateOutcome> {
    let validated: { record: PrivateEndpointRecord; validation: EndpointValidation }
    try {
      validated = await validate(record, workspaceId)
    } catch (error) {
      if (!isGatewayError(error)) throw error
      return { kind: 'failed', error, endpoint: toManaged(record), validation: null }
    }
    if (!validated.validation.passed) {
      const failed = validated.validation.checks.filter((check) => !check.passed).map((check) => check.name)
      const error = new GatewayError(
        'unprocessable',
        `Validation failed (${failed.join(', ')}); the endpoint was kept as a draft`,
        { metadata: { reason: 'validation_failed' } },
      )
      return { kind: 'failed', error, endpoint: toManaged(validated.record), validation: validated.validation }
    }
    try {
      const active = await activate(validated.record)
      return { kind: 'activated', status: 201, endpoint: toManaged(active), validation: validated.validation }
    } catch (error) {
      if (!isGatewayError(error)) throw error
      return { kind: 'failed', error, endpoint: toManaged(validated.record), validation: validated.validation }
    }
  }

  return {
    async create(body: CreatePrivateEndpointBody, idempotencyKey: string | null): Promise<CreateOutcome> {
      if (idempotencyKey !== null && (idempotencyKey.length < 1 || idempotencyKey.length > 255)) {
        throw new GatewayError(
          'invalid_request',
          'Invalid request parameters: the Idempotency-Key header must be 1 to 255 characters',
        )
      }
      const workspaceId = body.activate === undefined ? null : await workspaceOrThrow(body.activate.workspace_id)
      const { record, replayed } = await insertDraft(body, idempotencyKey)
      if (replayed) return replayOutcome(record, workspaceId !== null)
      if (workspaceId === null) return { kind: 'draft', status: 201, endpoint: toManaged(record) }
      return activateNew(record, workspaceId)
    },

    async list(): Promise<{ data: SummaryWire[] }> {
      return { data: (await repository.list(deps.organizationId)).map((row) => toSummary(decodePrivateEndpoint(row))) }
    },

    async get(id: string): Promise<FullWire> {
      return toFull(await load(id))
    },

    async update(id: string, body: UpdatePrivateEndpointBody): Promise<FullWire> {
      const record = await load(id)
      assertDraft(record, 'updated')
      const baseUrl =
        body.base_url === undefined
          ? record.baseUrl
          : (await assertEgressAllowed(body.base_url, deps.egress)).toString().replace(/\/+$/, '')
      const changes: Partial<PrivateEndpointRecord> = {
        upstreamModelId: body.upstream_model_id ?? record.upstreamModelId,
        baseUrl,
        declaredRegion: body.declared_region === undefined ? record.declaredRegion : body.declared_region,
        declaredZdr: body.declared_zdr === undefined ? record.declaredZdr : body.declared_zdr,
      }
      return toFull(await save(withChange(record, changes, clock.now().toISOString()), record))
    },

    async remove(id: string, draftOnly: boolean): Promise<{ id: string }> {
      const record = await load(id)
      if (draftOnly && (record.status !== 'draft' || record.everActivated)) {
        throw new GatewayError(
          'conflict',
          `Private endpoint ${id} has been activated; delete it without draft_only=true to remove it`,
          { metadata: { reason: 'invalid_state' } },
        )
      }
      if (!(await repository.remove(id))) throw new GatewayError('not_found', `Private endpoint ${id} not found`)
      await announce(id)
      return { id }
    },

    async validate(id: string, workspaceIdOrSlug: string): Promise<EndpointValidation> {
      const workspaceId = await workspaceOrThrow(workspaceIdOrSlug)
      const { validation } = await validate(await load(id), workspaceId)
      return validation
    },

    async activate(id: string): Promise<ManagedWire> {
      return toManaged(await activate(await load(id)))
    },

    async disable(id: string): Promise<ManagedWire> {
      const record = await load(id)
      assertStatus(record, 'active', 'disabled')
      return toManaged(
        await save(
          { ...record, status: 'disabled', revision: record.revision + 1, updatedAt: clock.now().toISOString() },
          record,
        ),
      )
    },

    async enable(id: string): Promise<ManagedWire> {
      const record = await load(id)
      assertStatus(record, 'disabled', 'enabled')
      return toManaged(
        await save(
          { ...record, status: 'active', revision: record.revision + 1, updatedAt: clock.now().toISOString() },
          record,
        ),
      )
    },

    async setPricing(id: string, pricing: PricingInput): Promise<FullWire> {
      const record = await load(id)
      return toFull(
        await save(
          withChange(
            record,
            { pricing: { prompt: pricing.prompt, completion: pricing.completion } },
            clock.now().toISOString(),
          ),
          record,
        ),
      )
    },

    async setCredential(id: string, apiKey: string | null): Promise<{ id: string; has_credential: boolean }> {
      const record = await load(id)
      const sealedCredential = apiKey === null ? null : deps.secretBox.seal(apiKey, credentialAssociatedData(id))
      await save(withChange(record, { sealedCredential }, clock.now().toISOString()), record)
      return { id, has_credential: apiKey !== null }
    },
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

function replayOutcome(record: PrivateEndpointRecord, wantsActivation: boolean): CreateOutcome {
  if (!wantsActivation) return { kind: 'draft', status: 200, endpoint: toManaged(record) }
  if (record.status !== 'draft')
    return { kind: 'activated', status: 200, endpoint: toManaged(record), validation: record.validation }
  const why = record.validation === null ? 'it has no current validation' : 'its validation did not pass'
  const error = new GatewayError(
    'unprocessable',
    `The endpoint this Idempotency-Key created is still a draft: ${why}; validate and activate it`,
    { metadata: { reason: 'validation_failed' } },
  )
  return { kind: 'failed', error, endpoint: toManaged(record), validation: record.validation }
}

export type PrivateEndpointService = ReturnType<typeof createPrivateEndpointService>
