// A destination's delivered count, for the records direct delivery sent straight from memory. Each
// batch's count is queued in the group commit (src/store/group-commit.ts) and goes with whatever
// transaction comes next, an answer's durable settlement or the flush of rows nobody waits for (every
// 200 ms), summed per destination into one update. So direct delivery never waits on the store, however
// slow it gets, and writes no transaction of its own (at a few requests a second, a transaction per
// exported batch came close to one per record). A commit that fails keeps the counts queued with the
// records, and they are tried again together.
import type { CommitQueue } from '../store/commit-queue.ts'
import type { DeliveredCount } from '../store/repositories/observability-destinations-repository.ts'

export class DeliveredCounts {
  readonly #queue: CommitQueue<DeliveredCount>
  /** Each count is a row of its own (the queue replaces a row added again under its key). */
  #added = 0

  constructor(queue: CommitQueue<DeliveredCount>) {
    this.#queue = queue
  }

  add(destinationId: string, count: number): void {
    this.#added += 1
    this.#queue.add(String(this.#added), { destinationId, count })
  }
}
