// Tables of migration 0006: the usage ledger and credit grants. Money is nano-dollars as decimal text.

export interface LedgerEntryTable {
  /** `<generation_id>:<attempt>`; also unique as the pair. */
  id: string
  generation_id: string
  attempt: number
  key_hash: string
  workspace_id: string
  organization_id: string
  model: string
  provider: string
  prompt_tokens: number
  completion_tokens: number
  reasoning_tokens: number
  cached_tokens: number
  cache_write_tokens: number
  cost_nano: string
  is_byok: number
  end_user: string | null
  created_at: string
}

export interface CreditGrantTable {
  id: string
  organization_id: string
  amount_nano: string
  note: string | null
  created_at: string
}
