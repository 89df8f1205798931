// Tables of the vault and interns area (migration 0003-vault-interns).

/** One vault per workspace (`owner` = `workspace:<id>`) and one per intern (`owner` = `intern:<id>`). */
export interface VaultTable {
  id: string
  workspace_id: string
  intern_id: string | null
  owner: string
  /** The vault's AES-256 data key, sealed by the master key. */
  data_key_sealed: string
  /** The vault's HMAC-SHA-256 fingerprint key, sealed by the master key. */
  fingerprint_key_sealed: string
  created_at: string
}

export interface VaultSecretTable {
  vault_id: string
  name: string
  /** JSON array of host names; null for legacy rows stored before host binding. */
  hosts: string | null
  /** `sha256:<hex>`; null for legacy rows. */
  fingerprint: string | null
  /** The value sealed by the vault's data key (associated data `<vault id>/<name>`). */
  value_sealed: string
  created_at: string
}

export interface InternTable {
  id: string
  workspace_id: string
  name: string
  description: string | null
  instructions: string | null
  model: string | null
  hostname: string | null
  status: string
  /** JSON `{step_label, step_number, total_steps}` or null. */
  progress: string | null
  last_failure_message: string | null
  vault_id: string
  attached_vault_id: string | null
  created_at: string
  updated_at: string
}

export interface InternIdempotencyTable {
  workspace_id: string
  idempotency_key: string
  request_hash: string
  intern_id: string
  created_at: string
}
