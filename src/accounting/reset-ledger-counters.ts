// Sets the Redis spend counters back to the ledger (`ledger rebuild-counters --reset`): Redis can be
// ahead of the ledger by what a process settled in the moment before it died and never committed. The
// key usage and credit counters that ledger rows feed are deleted and counted again from the rows.
// Budgets are not in the ledger: their counters are left as they are. Refused while any reservation
// holds a lease, since a serving gateway's settlements would race the rebuild.
import type { RedisSpendCounters } from '../counters/redis-spend-counters.ts'
import type { LedgerRepository } from '../store/repositories/ledger-repository.ts'
import { ledgerRowScopes } from './ledger-scopes.ts'
import { replayLedger, type ReplayReport } from './replay-ledger.ts'

export type ResetOutcome =
  | ({ readonly kind: 'reset'; readonly scopes: number } & ReplayReport)
  | { readonly kind: 'busy'; readonly held: number }

export async function resetLedgerCounters(
  ledger: LedgerRepository,
  counters: RedisSpendCounters,
  pageSize = 1000,
): Promise<ResetOutcome> {
  const held = await counters.heldReservations()
  if (held > 0) return { kind: 'busy', held }
  const scopeIds = new Set<string>()
  let afterId: string | null = null
  while (true) {
    const page = await ledger.page(afterId, pageSize)
    for (const row of page) for (const scope of ledgerRowScopes(row)) scopeIds.add(scope.id)
    const last = page.at(-1)
    if (last === undefined || page.length < pageSize) break
    afterId = last.id
  }
  await counters.forget([...scopeIds], 'ledger:')
  return { kind: 'reset', scopes: scopeIds.size, ...(await replayLedger(ledger, counters, pageSize)) }
}
