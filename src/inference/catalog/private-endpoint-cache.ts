// Active private endpoints held in memory per workspace and model, so routing never reads the store.
// Loaded at start; every 'private_endpoint' change event re-reads that endpoint (drafts, disabled and
// deleted ones drop out). Entries are immutable snapshots: a repricing replaces the entry, and calls
// already routed keep the prices they were routed with.
import type { ChangeBus } from '../../events/change-bus.ts'
import { InTurn } from '../../events/in-turn.ts'
import type { SecretBox } from '../../vault/secret-box.ts'
import type { PrivateEndpointsRepository } from '../../store/repositories/private-endpoints-repository.ts'
import {
  credentialAssociatedData,
  decodePrivateEndpoint,
  type PrivateEndpointRecord,
} from '../../private-endpoints/private-endpoint-record.ts'
import type { Catalog, EndpointEntry, ModelEntry } from '../../domain/catalog.ts'
import { introducedModel, toPrivateEndpointEntry } from './private-endpoint-entry.ts'

interface CachedEndpoint {
  readonly record: PrivateEndpointRecord
  readonly entry: EndpointEntry
}

export interface PrivateEndpointCacheDeps {
  readonly repository: PrivateEndpointsRepository
  readonly secretBox: SecretBox
  readonly bus: ChangeBus
  readonly onError: (error: unknown, endpointId: string) => void
}

export class PrivateEndpointCache {
  readonly #byId = new Map<string, CachedEndpoint>()
  /** `<workspace id> <model slug>` -> endpoints, rebuilt on every change (changes are rare, reads are not). */
  #byWorkspaceModel = new Map<string, CachedEndpoint[]>()
  readonly #deps: PrivateEndpointCacheDeps
  /** Refreshes (and the load) run in turn (in-turn.ts). */
  readonly #turns = new InTurn()

  constructor(deps: PrivateEndpointCacheDeps) {
    this.#deps = deps
    deps.bus.subscribe('private_endpoint', (id) =>
      this.#turns.run(() => this.#refresh(id)).catch((error: unknown) => deps.onError(error, id)),
    )
  }

  load(): Promise<void> {
    return this.#turns.run(() => this.#loadAll())
  }

  async #loadAll(): Promise<void> {
    const rows = await this.#deps.repository.listActive()
    this.#byId.clear()
    for (const row of rows) {
      try {
        this.#put(decodePrivateEndpoint(row))
      } catch (error) {
        this.#deps.onError(error, row.id)
      }
    }
    this.#reindex()
  }

  /** Re-reads one endpoint; anything not active is dropped. */
  async #refresh(id: string): Promise<void> {
    const row = await this.#deps.repository.find(id)
    this.#byId.delete(id)
    try {
      if (row !== undefined) this.#put(decodePrivateEndpoint(row))
    } finally {
      this.#reindex()
    }
  }

  /** Resolves once every refresh announced so far has been applied. */
  settled(): Promise<void> {
    return this.#turns.settled()
  }

  /** The endpoints active for this model in this workspace. */
  endpointsFor(workspaceId: string, modelSlug: string): CachedEndpoint[] {
    return this.#byWorkspaceModel.get(`${workspaceId} ${modelSlug}`) ?? []
  }

  /** The catalog's model with this workspace's private endpoints added, or the model they introduce. */
  modelFor(catalog: Pick<Catalog, 'model'>, slug: string, workspaceId: string | undefined): ModelEntry | undefined {
    const known = catalog.model(slug)
    if (workspaceId === undefined) return known
    const own = this.endpointsFor(workspaceId, slug)
    if (own.length === 0) return known
    const entries = own.map((cached) => cached.entry)
    if (known !== undefined)
      return known.kind === 'text' ? { ...known, endpoints: [...known.endpoints, ...entries] } : known
    return { ...introducedModel(own[0]!.record), endpoints: entries }
  }

  #reindex(): void {
    const index = new Map<string, CachedEndpoint[]>()
    for (const cached of this.#byId.values()) {
      const key = `${cached.record.workspaceId} ${cached.record.modelPermaslug}`
      index.set(key, [...(index.get(key) ?? []), cached])
    }
    this.#byWorkspaceModel = index
  }

  #put(record: PrivateEndpointRecord): void {
    if (record.status !== 'active' || record.workspaceId === null) return
    let apiKey: string | null = null
    if (record.sealedCredential !== null)
      apiKey = this.#deps.secretBox.openText(record.sealedCredential, credentialAssociatedData(record.id))
    this.#byId.set(record.id, { record, entry: toPrivateEndpointEntry(record, apiKey) })
  }
}
