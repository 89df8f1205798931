// A destination as the API shows it: snake_case fields, the given (masked) config, delivery counters.
import type { Destination } from '../../observability/destination.ts'
import type { DestinationConfig } from '../../observability/destination-types.ts'
import type { DeliveryCounts } from '../../store/repositories/observability-destinations-repository.ts'
import type { DestinationWire } from './schema.ts'

export function toDestinationWire(
  destination: Destination,
  shownConfig: DestinationConfig,
  counts: DeliveryCounts | undefined,
): DestinationWire {
  return {
    id: destination.id,
    workspace_id: destination.workspaceId,
    name: destination.name,
    type: destination.type,
    config: { ...shownConfig },
    enabled: destination.enabled,
    api_key_hashes: destination.apiKeyHashes === null ? null : [...destination.apiKeyHashes],
    broadcast_generation_cost: destination.broadcastGenerationCost,
    broadcast_generation_cost_allocation: destination.broadcastGenerationCostAllocation,
    broadcast_generation_identity: destination.broadcastGenerationIdentity,
    broadcast_generation_request_context: destination.broadcastGenerationRequestContext,
    filter_rules: destination.filterRules === null ? null : { ...destination.filterRules },
    privacy_mode: destination.privacyMode,
    regions: [...destination.regions],
    sampling_rate: destination.samplingRate,
    created_at: destination.createdAt,
    updated_at: destination.updatedAt,
    delivery: {
      pending: counts?.pending ?? 0,
      failed: counts?.failed ?? 0,
      delivered: counts?.delivered ?? 0,
      dead_lettered: counts?.deadLettered ?? 0,
      last_error: destination.lastError,
    },
  }
}
