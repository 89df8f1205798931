// The counters one ledger row adds to, with windows taken at the row's own time: the key's usage (or
// BYOK) and total families in every period, and the organization's credit counter for non-BYOK spend.
// Budgets are not in the ledger and are not rebuilt.
import type { ScopeRef } from '../counters/spend-counters.ts'
import type { LedgerRow } from '../store/repositories/ledger-repository.ts'
import { keySpendScope, usagePeriods } from './key-scopes.ts'
import { creditScopeId } from './credit-balance.ts'

export function ledgerRowScopes(row: LedgerRow): ScopeRef[] {
  const at = Date.parse(row.created_at)
  const families = [row.is_byok === 1 ? 'byok' : 'usage', 'total'] as const
  const scopes: ScopeRef[] = families.flatMap((family) =>
    usagePeriods.map((period) => {
      const { id, ttlSeconds } = keySpendScope(row.key_hash, family, period, null, at)
      return ttlSeconds === undefined ? { id } : { id, ttlSeconds }
    }),
  )
  if (row.is_byok !== 1) scopes.push({ id: creditScopeId(row.organization_id) })
  return scopes
}

/** The idempotency id under which a ledger row is replayed into the counters. */
export function ledgerRecordId(row: LedgerRow): string {
  return `ledger:${row.id}`
}
