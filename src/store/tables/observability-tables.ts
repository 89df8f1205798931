// Observability destinations and the delivery outbox. Conventions as in database.ts: text ids,
// ISO 8601 UTC text timestamps, integer 0/1 booleans, JSON as text.
import type { Generated, Selectable } from 'kysely'

export interface ObservabilityDestinationTable {
  id: string
  workspace_id: string
  name: string | null
  type: string
  /** JSON object; secret values are sealed with the SecretBox (`v1.<iv>.<tag>.<ciphertext>`). */
  config: string
  enabled: number
  /** JSON array of key hashes, or null for all keys. */
  api_key_hashes: string | null
  broadcast_generation_cost: number
  broadcast_generation_cost_allocation: number
  broadcast_generation_identity: number
  broadcast_generation_request_context: number
  /** JSON object or null. */
  filter_rules: string | null
  privacy_mode: number
  /** JSON array of global | europe | us. */
  regions: string
  sampling_rate: number
  last_error: string | null
  /** Records delivered so far (delivered outbox rows are deleted; migration 0010). */
  delivered_count: Generated<number>
  created_at: string
  updated_at: string
  deleted_at: string | null
}

/** A destination's own fields; the delivered count is written only by delivery (markDeliveredMany). */
export type DestinationRow = Omit<Selectable<ObservabilityDestinationTable>, 'delivered_count'>

/** One record to deliver to one destination. status: pending | delivered | dead. */
export interface ObservabilityOutboxTable {
  id: string
  destination_id: string
  generation_id: string
  /** JSON of the DestinationRecord built at enqueue time. */
  payload: string
  status: string
  attempts: number
  next_attempt_at: string
  lease_owner: string | null
  lease_expires_at: string | null
  last_error: string | null
  created_at: string
  delivered_at: string | null
}
