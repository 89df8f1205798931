// The enabled destinations of each workspace, decoded (credentials unsealed) and kept in memory, so
// broadcasting a generation reads no store and decrypts nothing. Any change to a destination (the
// 'observability_destination' topic of the change bus) drops the whole cache: destinations change
// rarely and a reload is one query per workspace. Loads are shared and a failed load is not kept.
import type { ChangeBus } from '../events/change-bus.ts'
import type { SecretBox } from '../vault/secret-box.ts'
import type { ObservabilityDestinationsRepository } from '../store/repositories/observability-destinations-repository.ts'
import { decodeDestination, type Destination } from './destination.ts'

export class DestinationCache {
  readonly #byWorkspace = new Map<string, Promise<readonly Destination[]>>()

  constructor(
    private readonly destinations: Pick<ObservabilityDestinationsRepository, 'listDeliverable'>,
    private readonly secretBox: SecretBox,
    changeBus: ChangeBus,
  ) {
    changeBus.subscribe('observability_destination', () => this.#byWorkspace.clear())
  }

  deliverable(workspaceId: string): Promise<readonly Destination[]> {
    const cached = this.#byWorkspace.get(workspaceId)
    if (cached !== undefined) return cached
    const loading = this.#load(workspaceId)
    this.#byWorkspace.set(workspaceId, loading)
    loading.catch(() => {
      if (this.#byWorkspace.get(workspaceId) === loading) this.#byWorkspace.delete(workspaceId)
    })
    return loading
  }

  async #load(workspaceId: string): Promise<readonly Destination[]> {
    const rows = await this.destinations.listDeliverable(workspaceId)
    return rows.map((row) => decodeDestination(row, this.secretBox))
  }
}
