// Rebuilds spend totals from the ledger: every row is recorded into the counters under an idempotent
// id (`ledger:<generation>:<attempt>`), so a replay repeated within the counters' retention adds nothing.
// Meant for empty counters (a fresh process with memory counters, or a Redis that lost its data):
// counters that already hold the settled spend would count it twice.
import type { SpendCounters } from '../counters/spend-counters.ts'
import type { LedgerRepository } from '../store/repositories/ledger-repository.ts'
import { ledgerRecordId, ledgerRowScopes } from './ledger-scopes.ts'

export interface ReplayReport {
  readonly rows: number
  readonly recorded: number
}

export async function replayLedger(
  ledger: LedgerRepository,
  counters: SpendCounters,
  pageSize = 1000,
): Promise<ReplayReport> {
  let rows = 0
  let recorded = 0
  let afterId: string | null = null
  while (true) {
    const page = await ledger.page(afterId, pageSize)
    for (const row of page) {
      const result = await counters.record({
        id: ledgerRecordId(row),
        scopes: ledgerRowScopes(row),
        amountNano: BigInt(row.cost_nano),
      })
      if (result.recorded) recorded += 1
    }
    rows += page.length
    const last = page.at(-1)
    if (last === undefined || page.length < pageSize) return { rows, recorded }
    afterId = last.id
  }
}
