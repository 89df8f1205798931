// Queues the ledger rows of settlements for the store's group commit (src/store/group-commit.ts), which
// writes them in the same transactions as the generation records. Inserts are idempotent on
// (generation_id, attempt), so a commit retried after a failure, or a settlement repeated, never writes a
// second row; a failed commit keeps its rows queued for the next (fail closed on money).
import type { CommitQueue } from '../store/commit-queue.ts'
import type { GroupCommit } from '../store/group-commit.ts'
import type { LedgerRepository, LedgerRow } from '../store/repositories/ledger-repository.ts'

export class LedgerWriter {
  readonly #commits: GroupCommit
  readonly #queue: CommitQueue<LedgerRow>

  constructor(repository: LedgerRepository, commits: GroupCommit) {
    this.#commits = commits
    this.#queue = commits.queue(repository.rowsPlan)
  }

  /** Queues a row; a row with the same id already queued is replaced (settlement is idempotent). */
  enqueue(row: LedgerRow): void {
    this.#queue.add(row.id, row)
  }

  get pendingCount(): number {
    return this.#queue.size
  }

  /** Commits what is queued (with every other queue of the group commit); a failure is told to its `onError`. */
  flush(): Promise<void> {
    return this.#commits.flush()
  }
}
