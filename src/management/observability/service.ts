// Observability destinations: create, list, get, update, soft delete. Validates everything before it
// writes, names every problem at once, seals secrets and masks them on the way out.
import { randomBytes, randomUUID } from 'node:crypto'
import { GatewayError } from '../../domain/errors.ts'
import type { Clock } from '../../domain/clock.ts'
import type { EgressPolicy } from '../../http/egress-policy.ts'
import type { SecretBox } from '../../vault/secret-box.ts'
import type { ObservabilityDestinationsRepository } from '../../store/repositories/observability-destinations-repository.ts'
import { decodeDestination, encodeDestination, type Destination } from '../../observability/destination.ts'
import type { DestinationConfig, DestinationType, Region } from '../../observability/destination-types.ts'
import { filterRulesProblems, type FilterRules } from '../../observability/filter-rules.ts'
import { deliverableTypes } from '../../observability/exporters/exporter-registry.ts'
import {
  maskConfig,
  mergeConfigPatch,
  validateDestinationConfig,
} from '../../observability/validate-destination-config.ts'
import type { TestEventOutcome } from '../../observability/send-test-event.ts'
import { toDestinationWire } from './destination-wire.ts'
import type { CreateDestinationBody, DestinationWire, TestEventWire, UpdateDestinationBody } from './schema.ts'

export const maxDestinationsPerType = 5

export interface ObservabilityServiceDeps {
  readonly destinations: ObservabilityDestinationsRepository
  readonly secretBox: SecretBox
  readonly clock: Clock
  readonly egress: EgressPolicy
  readonly workspaceExists: (id: string) => Promise<boolean>
  /** The organization's default workspace: where destinations go when no workspace_id is given. */
  readonly defaultWorkspaceId: () => Promise<string>
  /** Sends one synthetic generation to a destination now, through its exporter (send-test-event.ts). */
  readonly sendTestEvent: (destination: Destination) => Promise<TestEventOutcome>
  /** Told after every create, update and delete (the broadcaster's destination cache listens). */
  readonly onChange?: (destinationId: string) => void
}

type FilterRulesInput = CreateDestinationBody['filter_rules']

function normalizeRegions(regions: readonly string[] | undefined): Region[] {
  const normalized = (regions ?? ['global']).map((region) => (region === 'eu' ? 'europe' : region) as Region)
  return [...new Set(normalized)]
}

function normalizeFilterRules(rules: FilterRulesInput): FilterRules | null {
  if (rules === undefined || rules === null) return null
  return {
    enabled: rules.enabled ?? true,
    groups: rules.groups.map((group) => ({
      logic: group.logic ?? 'and',
      rules: group.rules.map((rule) => ({ ...rule })),
    })),
  }
}

function refuseIfProblems(problems: readonly string[]): void {
  if (problems.length === 0) return
  throw new GatewayError('invalid_request', `Invalid destination: ${problems.join('; ')}`, {
    metadata: { problems: [...problems] },
  })
}

function refuseUndeliverable(type: DestinationType): void {
  if (deliverableTypes.has(type)) return
  throw new GatewayError(
    'invalid_request',
    `Destinations of type ${type} cannot be delivered by this gateway yet; supported types: ${[...deliverableTypes].join(', ')}`,
  )
}

export function createObservabilityService(deps: ObservabilityServiceDeps): ObservabilityService {
  return new ObservabilityService(deps)
}

/** The destination operations; secrets are sealed in the store and masked in every answer. */
export class ObservabilityService {
  readonly #deps: ObservabilityServiceDeps

  constructor(deps: ObservabilityServiceDeps) {
    this.#deps = deps
  }

  async create(body: CreateDestinationBody): Promise<DestinationWire> {
    const { destinations, secretBox, clock } = this.#deps
    const type = body.type as DestinationType
    refuseUndeliverable(type)
    const workspaceId = await this.#resolveWorkspace(body.workspace_id)
    const filterRules = normalizeFilterRules(body.filter_rules)
    const validation = validateDestinationConfig(type, body.config, this.#deps.egress)
    refuseIfProblems([...validation.problems, ...(filterRules === null ? [] : filterRulesProblems(filterRules))])
    if ((await destinations.countOfType(workspaceId, type)) >= maxDestinationsPerType) {
      throw new GatewayError(
        'conflict',
        `A workspace can have at most ${maxDestinationsPerType} destinations of type ${type}; delete one first`,
      )
    }
    const generatedSecret =
      type === 'webhook' && validation.config.secret === undefined
        ? `whsec_${randomBytes(32).toString('base64')}`
        : undefined
    const config = generatedSecret === undefined ? validation.config : { ...validation.config, secret: generatedSecret }
    const now = clock.now().toISOString()
    const destination: Destination = {
      id: randomUUID(),
      workspaceId,
      name: body.name,
      type,
      config,
      enabled: body.enabled ?? true,
      apiKeyHashes: body.api_key_hashes ?? null,
      broadcastGenerationCost: body.broadcast_generation_cost ?? false,
      broadcastGenerationCostAllocation: body.broadcast_generation_cost_allocation ?? false,
      broadcastGenerationIdentity: body.broadcast_generation_identity ?? false,
      broadcastGenerationRequestContext: body.broadcast_generation_request_context ?? false,
      filterRules,
      privacyMode: body.privacy_mode ?? false,
      regions: normalizeRegions(body.regions),
      samplingRate: body.sampling_rate ?? 1,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    }
    await destinations.insert(encodeDestination(destination, secretBox))
    this.#deps.onChange?.(destination.id)
    const shown = maskConfig(type, config)
    return this.#toWire(destination, generatedSecret === undefined ? shown : { ...shown, secret: generatedSecret })
  }

  async list(query: {
    offset: number
    limit: number
    workspaceId: string | undefined
  }): Promise<{ data: DestinationWire[]; total_count: number }> {
    const { destinations, secretBox } = this.#deps
    const workspaceId = await this.#resolveWorkspace(query.workspaceId)
    const { rows, total } = await destinations.list(workspaceId, [...deliverableTypes], query.offset, query.limit)
    const counts = await destinations.deliveryCounts(rows.map((row) => row.id))
    const data = rows.map((row) => {
      const destination = decodeDestination(row, secretBox)
      return toDestinationWire(destination, maskConfig(destination.type, destination.config), counts.get(row.id))
    })
    return { data, total_count: total }
  }

  async get(id: string): Promise<DestinationWire> {
    return this.#toWire(await this.#load(id))
  }

  async update(id: string, body: UpdateDestinationBody): Promise<DestinationWire> {
    const current = await this.#load(id)
    const filterRules = body.filter_rules === undefined ? current.filterRules : normalizeFilterRules(body.filter_rules)
    const validation =
      body.config === undefined
        ? { config: current.config, problems: [] }
        : validateDestinationConfig(current.type, mergeConfigPatch(current.config, body.config), this.#deps.egress)
    refuseIfProblems([...validation.problems, ...(filterRules === null ? [] : filterRulesProblems(filterRules))])
    const updated: Destination = {
      ...current,
      name: body.name ?? current.name,
      config: validation.config,
      enabled: body.enabled ?? current.enabled,
      apiKeyHashes: body.api_key_hashes === undefined ? current.apiKeyHashes : body.api_key_hashes,
      broadcastGenerationCost: body.broadcast_generation_cost ?? current.broadcastGenerationCost,
      broadcastGenerationCostAllocation:
        body.broadcast_generation_cost_allocation ?? current.broadcastGenerationCostAllocation,
      broadcastGenerationIdentity: body.broadcast_generation_identity ?? current.broadcastGenerationIdentity,
      broadcastGenerationRequestContext:
        body.broadcast_generation_request_context ?? current.broadcastGenerationRequestContext,
      filterRules,
      privacyMode: body.privacy_mode ?? current.privacyMode,
      regions: body.regions === undefined ? current.regions : normalizeRegions(body.regions),
      samplingRate: body.sampling_rate ?? current.samplingRate,
      updatedAt: this.#deps.clock.now().toISOString(),
    }
    await this.#deps.destinations.update(encodeDestination(updated, this.#deps.secretBox))
    this.#deps.onChange?.(id)
    return this.#toWire(updated)
  }

  /** Sends a test event to the destination and answers what happened; writes nothing. */
  async sendTestEvent(id: string): Promise<TestEventWire> {
    const destination = await this.#load(id)
    refuseUndeliverable(destination.type)
    const outcome = await this.#deps.sendTestEvent(destination)
    return {
      destination_id: destination.id,
      type: destination.type,
      generation_id: outcome.generationId,
      delivered: outcome.delivered,
      error: outcome.error === null ? null : { message: outcome.error.message, status: outcome.error.status },
    }
  }

  async remove(id: string): Promise<{ deleted: true }> {
    if (!(await this.#deps.destinations.softDelete(id, this.#deps.clock.now().toISOString())))
      throw new GatewayError('not_found', `Observability destination ${id} not found`)
    this.#deps.onChange?.(id)
    return { deleted: true }
  }

  async #load(id: string): Promise<Destination> {
    const row = await this.#deps.destinations.find(id)
    if (row === undefined) throw new GatewayError('not_found', `Observability destination ${id} not found`)
    return decodeDestination(row, this.#deps.secretBox)
  }

  async #toWire(destination: Destination, reveal?: DestinationConfig): Promise<DestinationWire> {
    const counts = await this.#deps.destinations.deliveryCounts([destination.id])
    return toDestinationWire(
      destination,
      reveal ?? maskConfig(destination.type, destination.config),
      counts.get(destination.id),
    )
  }

  async #resolveWorkspace(given: string | undefined): Promise<string> {
    const workspaceId = given ?? (await this.#deps.defaultWorkspaceId())
    if (!(await this.#deps.workspaceExists(workspaceId)))
      throw new GatewayError('invalid_request', `Workspace ${workspaceId} does not exist`)
    return workspaceId
  }
}
