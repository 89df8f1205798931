// Private endpoints: create (with Idempotency-Key, optionally validate + activate in one call), list,
// get, update drafts, delete, validate, activate, disable, enable, reprice, set the credential. Every
// change that affects routing is announced on the change bus and applied to the routing cache before
// the call returns, so the next request sees it.
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
import { insertDraft } from './insert-draft.ts'
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
  /** The name of an API family, for a provider_slug that names the API itself (the provider registry's). */
  readonly familyName: (api: ProviderApi) => string
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

export function createPrivateEndpointService(deps: PrivateEndpointServiceDeps): PrivateEndpointService {
  return new PrivateEndpointService(deps)
}

/** The private endpoint operations; each change is saved against the revision it read (409 on a race). */
export class PrivateEndpointService {
  readonly #deps: PrivateEndpointServiceDeps

  constructor(deps: PrivateEndpointServiceDeps) {
    this.#deps = deps
  }

  async create(body: CreatePrivateEndpointBody, idempotencyKey: string | null): Promise<CreateOutcome> {
    if (idempotencyKey !== null && (idempotencyKey.length < 1 || idempotencyKey.length > 255)) {
      throw new GatewayError(
        'invalid_request',
        'Invalid request parameters: the Idempotency-Key header must be 1 to 255 characters',
      )
    }
    const workspaceId = body.activate === undefined ? null : await this.#workspaceOrThrow(body.activate.workspace_id)
    const { record, replayed } = await insertDraft(this.#deps, body, idempotencyKey)
    if (replayed) return replayOutcome(record, workspaceId !== null)
    if (workspaceId === null) return { kind: 'draft', status: 201, endpoint: toManaged(record) }
    return this.#activateNew(record, workspaceId)
  }

  async list(): Promise<{ data: SummaryWire[] }> {
    const rows = await this.#deps.repository.list(this.#deps.organizationId)
    return { data: rows.map((row) => toSummary(decodePrivateEndpoint(row))) }
  }

  async get(id: string): Promise<FullWire> {
    return toFull(await this.#load(id))
  }

  async update(id: string, body: UpdatePrivateEndpointBody): Promise<FullWire> {
    const record = await this.#load(id)
    assertDraft(record, 'updated')
    const baseUrl =
      body.base_url === undefined
        ? record.baseUrl
        : (await assertEgressAllowed(body.base_url, this.#deps.egress)).toString().replace(/\/+$/, '')
    const changes: Partial<PrivateEndpointRecord> = {
      upstreamModelId: body.upstream_model_id ?? record.upstreamModelId,
      baseUrl,
      declaredRegion: body.declared_region === undefined ? record.declaredRegion : body.declared_region,
      declaredZdr: body.declared_zdr === undefined ? record.declaredZdr : body.declared_zdr,
    }
    return toFull(await this.#save(withChange(record, changes, this.#now()), record))
  }

  async remove(id: string, draftOnly: boolean): Promise<{ id: string }> {
    const record = await this.#load(id)
    if (draftOnly && (record.status !== 'draft' || record.everActivated)) {
      throw new GatewayError(
        'conflict',
        `Private endpoint ${id} has been activated; delete it without draft_only=true to remove it`,
        { metadata: { reason: 'invalid_state' } },
      )
    }
    if (!(await this.#deps.repository.remove(id)))
      throw new GatewayError('not_found', `Private endpoint ${id} not found`)
    await this.#announce(id)
    return { id }
  }

  async validate(id: string, workspaceIdOrSlug: string): Promise<EndpointValidation> {
    const workspaceId = await this.#workspaceOrThrow(workspaceIdOrSlug)
    const { validation } = await this.#validateRecord(await this.#load(id), workspaceId)
    return validation
  }

  async activate(id: string): Promise<ManagedWire> {
    return toManaged(await this.#activateRecord(await this.#load(id)))
  }

  async disable(id: string): Promise<ManagedWire> {
    const record = await this.#load(id)
    assertStatus(record, 'active', 'disabled')
    return toManaged(
      await this.#save(
        { ...record, status: 'disabled', revision: record.revision + 1, updatedAt: this.#now() },
        record,
      ),
    )
  }

  async enable(id: string): Promise<ManagedWire> {
    const record = await this.#load(id)
    assertStatus(record, 'disabled', 'enabled')
    return toManaged(
      await this.#save({ ...record, status: 'active', revision: record.revision + 1, updatedAt: this.#now() }, record),
    )
  }

  async setPricing(id: string, pricing: PricingInput): Promise<FullWire> {
    const record = await this.#load(id)
    const changes = { pricing: { prompt: pricing.prompt, completion: pricing.completion } }
    return toFull(await this.#save(withChange(record, changes, this.#now()), record))
  }

  async setCredential(id: string, apiKey: string | null): Promise<{ id: string; has_credential: boolean }> {
    const record = await this.#load(id)
    const sealedCredential = apiKey === null ? null : this.#deps.secretBox.seal(apiKey, credentialAssociatedData(id))
    await this.#save(withChange(record, { sealedCredential }, this.#now()), record)
    return { id, has_credential: apiKey !== null }
  }

  #now(): string {
    return this.#deps.clock.now().toISOString()
  }

  async #load(id: string): Promise<PrivateEndpointRecord> {
    const row = await this.#deps.repository.find(id)
    if (row === undefined || row.organization_id !== this.#deps.organizationId)
      throw new GatewayError('not_found', `Private endpoint ${id} not found`)
    return decodePrivateEndpoint(row)
  }

  async #save(next: PrivateEndpointRecord, previous: PrivateEndpointRecord): Promise<PrivateEndpointRecord> {
    if (!(await this.#deps.repository.update(encodePrivateEndpoint(next), previous.revision))) {
      throw new GatewayError(
        'conflict',
        `Private endpoint ${previous.id} changed while this request ran; read it again and retry`,
      )
    }
    await this.#announce(next.id)
    return next
  }

  async #announce(id: string): Promise<void> {
    this.#deps.changeBus.publish('private_endpoint', id)
    await this.#deps.changesApplied()
  }

  async #workspaceOrThrow(idOrSlug: string): Promise<string> {
    const id = await this.#deps.resolveWorkspace(idOrSlug)
    if (id === undefined)
      throw new GatewayError('not_found', `Workspace ${idOrSlug} does not exist`, {
        metadata: { reason: 'workspace_not_found' },
      })
    return id
  }

  #openCredential(record: PrivateEndpointRecord): string | null {
    if (record.sealedCredential === null) return null
    try {
      return this.#deps.secretBox.openText(record.sealedCredential, credentialAssociatedData(record.id))
    } catch {
      throw new GatewayError(
        'unprocessable',
        `The stored credential of private endpoint ${record.id} cannot be decrypted (was the master key changed?); PUT /private-endpoints/${record.id}/credential again`,
        { metadata: { reason: 'key_decryption_failed' } },
      )
    }
  }

  /** Runs the checks and records their result; a concurrent change keeps the record it read. */
  async #validateRecord(
    record: PrivateEndpointRecord,
    workspaceId: string,
  ): Promise<{ record: PrivateEndpointRecord; validation: EndpointValidation }> {
    await assertEgressAllowed(record.baseUrl, this.#deps.egress).catch((error: unknown) => {
      throw isGatewayError(error)
        ? new GatewayError('invalid_request', error.message, { metadata: { reason: 'invalid_base_url' } })
        : error
    })
    const validation = await this.#deps.checkEndpoint(record, this.#openCredential(record))
    const now = this.#now()
    const next: PrivateEndpointRecord = {
      ...record,
      validation,
      validatedAt: now,
      validatedWorkspaceId: workspaceId,
      validatedRevision: record.revision + 1,
      revision: record.revision + 1,
      updatedAt: now,
    }
    const saved = await this.#deps.repository.update(encodePrivateEndpoint(next), record.revision)
    return { record: saved ? next : record, validation }
  }

  async #activateRecord(record: PrivateEndpointRecord): Promise<PrivateEndpointRecord> {
    const now = this.#deps.clock.now()
    const workspaceId = activationWorkspace(record, now.getTime())
    return this.#save(
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

  /** Validates and activates a newly created draft; a failure keeps the draft and is answered, not thrown. */
  async #activateNew(record: PrivateEndpointRecord, workspaceId: string): Promise<CreateOutcome> {
    let validated: { record: PrivateEndpointRecord; validation: EndpointValidation }
    try {
      validated = await this.#validateRecord(record, workspaceId)
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
      const active = await this.#activateRecord(validated.record)
      return { kind: 'activated', status: 201, endpoint: toManaged(active), validation: validated.validation }
    } catch (error) {
      if (!isGatewayError(error)) throw error
      return { kind: 'failed', error, endpoint: toManaged(validated.record), validation: validated.validation }
    }
  }
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
