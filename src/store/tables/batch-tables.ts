// Batches and the item queue. Conventions as in database.ts: text ids, ISO 8601 UTC text timestamps,
// JSON as text, money as integer nano-dollars in text.

export interface BatchTable {
  id: string
  organization_id: string
  workspace_id: string
  /** The submitting key's hash: items run as that key. */
  key_hash: string
  endpoint: string
  model: string
  /** A BatchStatus. */
  status: string
  completion_window: string
  /** JSON `{only?, allow_fallbacks?}` or null. */
  provider: string | null
  callback_url: string | null
  total: number
  completed: number
  failed: number
  cost_nano: string
  /** JSON `{message}` or null. */
  error: string | null
  created_at: string
  /** created_at + completion window. */
  expires_at: string
  finalized_at: string | null
  results_deleted_at: string | null
  /** null (no callback), pending, delivered or dead. */
  webhook_status: string | null
  webhook_attempts: number
  webhook_next_at: string | null
}

/** One request line. status: pending | done. `result` JSON `{id, response, error}` once done. */
export interface BatchItemTable {
  id: string
  batch_id: string
  position: number
  custom_id: string
  /** The line body as submitted (JSON). */
  body: string
  status: string
  lease_owner: string | null
  lease_expires_at: string | null
  attempts: number
  result: string | null
  cost_nano: string
  finished_at: string | null
}
