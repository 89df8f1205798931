// Test fixture (no test runner inside): one ledger row of attempt 1 for a generation, as the ledger
// writer enqueues it, with the fields a test varies given as overrides. Used by *.test.ts only.
import type { LedgerRow } from '../store/repositories/ledger-repository.ts'

export function ledgerRow(generation: string, overrides: Partial<LedgerRow> = {}): LedgerRow {
  const attempt = overrides.attempt ?? 1
  return {
    id: `${generation}:${attempt}`,
    generation_id: generation,
    attempt,
    key_hash: 'k',
    workspace_id: 'w',
    organization_id: 'o',
    model: 'm',
    provider: 'p',
    prompt_tokens: 1,
    completion_tokens: 2,
    reasoning_tokens: 0,
    cached_tokens: 0,
    cache_write_tokens: 0,
    cost_nano: '1000',
    is_byok: 0,
    end_user: null,
    created_at: '2026-11-22T12:00:00.000Z',
    ...overrides,
  }
}
