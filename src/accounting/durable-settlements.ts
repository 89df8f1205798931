// What an inference path awaits before the end of an answer leaves: the call's ledger rows and its
// generation record committed (the store's group commit), so that an answered request is a recorded
// one, even after kill -9. A deployment that prefers latency sets `durability.write_behind`, and the
// answer no longer waits: its rows are committed within the group commit's flush interval.
import type { GroupCommit } from '../store/group-commit.ts'

export interface DurableSettlements {
  /**
   * Resolves once every ledger row and generation record added so far is committed (at once in
   * write-behind mode). Never rejects: when the commit fails, `onFailure` is told and the rows stay
   * queued for a retry, and the caller answers anyway (the spend is held in the counters meanwhile).
   */
  durable(generationId: string): Promise<void>
}

export interface DurableSettlementsOptions {
  readonly isWriteBehind: boolean
  readonly onFailure: (error: unknown, generationId: string) => void
}

export function durableSettlements(commits: GroupCommit, options: DurableSettlementsOptions): DurableSettlements {
  if (options.isWriteBehind) return { durable: () => Promise.resolve() }
  return {
    durable: (generationId) => commits.durable().catch((error: unknown) => options.onFailure(error, generationId)),
  }
}
