// A destination as the code uses it (secrets in plaintext, JSON parsed), and its codec to and from the
// store row. Secret config fields and header values are sealed together, bound to the destination id.
import type { SecretBox } from '../vault/secret-box.ts'
import type { DestinationRow } from '../store/tables/observability-tables.ts'
import { configFields, type DestinationConfig, type DestinationType, type Region } from './destination-types.ts'
import type { FilterRules } from './filter-rules.ts'

export interface Destination {
  readonly id: string
  readonly workspaceId: string
  readonly name: string | null
  readonly type: DestinationType
  readonly config: DestinationConfig
  readonly enabled: boolean
  readonly apiKeyHashes: readonly string[] | null
  readonly broadcastGenerationCost: boolean
  readonly broadcastGenerationCostAllocation: boolean
  readonly broadcastGenerationIdentity: boolean
  readonly broadcastGenerationRequestContext: boolean
  readonly filterRules: FilterRules | null
  readonly privacyMode: boolean
  readonly regions: readonly Region[]
  readonly samplingRate: number
  readonly lastError: string | null
  readonly createdAt: string
  readonly updatedAt: string
}

interface StoredConfig {
  readonly plain: Record<string, string>
  /** SecretBox-sealed JSON of the secret fields and headers, or null when there are none. */
  readonly sealed: string | null
}

export function encodeDestination(destination: Destination, secretBox: SecretBox): DestinationRow {
  return {
    id: destination.id,
    workspace_id: destination.workspaceId,
    name: destination.name,
    type: destination.type,
    config: JSON.stringify(sealConfig(destination, secretBox)),
    enabled: destination.enabled ? 1 : 0,
    api_key_hashes: destination.apiKeyHashes === null ? null : JSON.stringify(destination.apiKeyHashes),
    broadcast_generation_cost: destination.broadcastGenerationCost ? 1 : 0,
    broadcast_generation_cost_allocation: destination.broadcastGenerationCostAllocation ? 1 : 0,
    broadcast_generation_identity: destination.broadcastGenerationIdentity ? 1 : 0,
    broadcast_generation_request_context: destination.broadcastGenerationRequestContext ? 1 : 0,
    filter_rules: destination.filterRules === null ? null : JSON.stringify(destination.filterRules),
    privacy_mode: destination.privacyMode ? 1 : 0,
    regions: JSON.stringify(destination.regions),
    sampling_rate: destination.samplingRate,
    last_error: destination.lastError,
    created_at: destination.createdAt,
    updated_at: destination.updatedAt,
    deleted_at: null,
  }
}

export function decodeDestination(row: DestinationRow, secretBox: SecretBox): Destination {
  const type = row.type as DestinationType
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    type,
    config: openConfig(JSON.parse(row.config) as StoredConfig, row.id, secretBox),
    enabled: row.enabled === 1,
    apiKeyHashes: row.api_key_hashes === null ? null : (JSON.parse(row.api_key_hashes) as string[]),
    broadcastGenerationCost: row.broadcast_generation_cost === 1,
    broadcastGenerationCostAllocation: row.broadcast_generation_cost_allocation === 1,
    broadcastGenerationIdentity: row.broadcast_generation_identity === 1,
    broadcastGenerationRequestContext: row.broadcast_generation_request_context === 1,
    filterRules: row.filter_rules === null ? null : (JSON.parse(row.filter_rules) as FilterRules),
    privacyMode: row.privacy_mode === 1,
    regions: JSON.parse(row.regions) as Region[],
    samplingRate: Number(row.sampling_rate),
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

function sealConfig(destination: Destination, secretBox: SecretBox): StoredConfig {
  const fields = configFields[destination.type]
  const plain: Record<string, string> = {}
  const secrets: Record<string, string | Readonly<Record<string, string>>> = {}
  for (const [name, value] of Object.entries(destination.config)) {
    if (value === undefined) continue
    if (typeof value === 'string' && fields[name]?.secret !== true) plain[name] = value
    else secrets[name] = value
  }
  const sealed =
    Object.keys(secrets).length === 0
      ? null
      : secretBox.seal(JSON.stringify(secrets), `observability-destination:${destination.id}`)
  return { plain, sealed }
}

function openConfig(stored: StoredConfig, id: string, secretBox: SecretBox): DestinationConfig {
  if (stored.sealed === null) return { ...stored.plain }
  const secrets = JSON.parse(secretBox.openText(stored.sealed, `observability-destination:${id}`)) as DestinationConfig
  return { ...stored.plain, ...secrets }
}
