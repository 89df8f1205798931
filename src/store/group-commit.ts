// Group commit for the rows every answer leaves behind (ledger rows, generation records). Rows wait in
// per-table queues; one transaction commits what every queue holds (a slice of `rowsPerCommit` rows per
// queue at most), and while it runs, the rows settled meanwhile gather for the next one, which starts
// as soon as it ends. So a caller of `durable()` waits for at most the commit in flight and its own,
// and throughput holds: one transaction carries everything settled in a few milliseconds. Rows nobody
// waits for (write-behind mode) are committed every `flushIntervalMs` and as soon as a queue holds
// `rowsPerCommit`. A transaction the store refuses for a row's data is split per queue (`commitRows`),
// so the bad row is set aside and the others commit; any other failure keeps every row queued for a
// retry after `retryMs` and rejects the callers waiting on it.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import { rowsPerSlice } from './batch-insert.ts'
import type { RowsPlan } from './commit-rows.ts'
import { CommitQueue, type TakenRows } from './commit-queue.ts'
import { isRowDataError } from './row-data-error.ts'
import type { WriteBehind } from './write-behind.ts'

export interface GroupCommitOptions {
  /** Told about a commit that failed for another reason than a row's data; its rows stay queued. */
  readonly onError: (error: unknown) => void
  /** How often rows nobody waits for are committed (write-behind mode). */
  readonly flushIntervalMs?: number
  /** The pause before a failed commit is tried again. */
  readonly retryMs?: number
  /** Rows taken from each queue by one transaction. */
  readonly rowsPerCommit?: number
}

interface Waiter {
  /** Resolved once every row queued up to this sequence number is committed or set aside. */
  readonly through: number
  resolve(): void
  reject(error: unknown): void
}

export class GroupCommit {
  readonly #writes: WriteBehind
  readonly #onError: (error: unknown) => void
  readonly #flushIntervalMs: number
  readonly #retryMs: number
  readonly #rowsPerCommit: number
  readonly #queues: CommitQueue<never>[] = []
  #waiters: Waiter[] = []
  #sequence = 0
  #isRunning = false
  #isScheduled = false
  #timer: NodeJS.Timeout | null = null
  #retryTimer: NodeJS.Timeout | null = null

  constructor(writes: WriteBehind, options: GroupCommitOptions) {
    this.#writes = writes
    this.#onError = options.onError
    this.#flushIntervalMs = options.flushIntervalMs ?? 200
    this.#retryMs = options.retryMs ?? 200
    this.#rowsPerCommit = options.rowsPerCommit ?? rowsPerSlice
  }

  /** A queue whose rows `plan` writes; rows added with a key already queued replace it. */
  queue<Row>(plan: RowsPlan<Row>): CommitQueue<Row> {
    const queue = new CommitQueue<Row>(plan, () => this.#added())
    this.#queues.push(queue as unknown as CommitQueue<never>)
    return queue
  }

  /** Commits rows nobody waits for every `flushIntervalMs` (until `close`). */
  start(): void {
    if (this.#timer !== null) return
    this.#timer = setInterval(() => {
      if (this.pendingCount > 0) this.#schedule()
    }, this.#flushIntervalMs)
    this.#timer.unref()
  }

  get pendingCount(): number {
    let count = 0
    for (const queue of this.#queues) count += queue.size
    return count
  }

  /**
   * Resolves once every row queued before the call is committed (or set aside as one the store cannot
   * hold); rejects when the commit that carried them failed (they stay queued and are retried).
   */
  durable(): Promise<void> {
    const through = this.#sequence
    if (this.#committedThrough() >= through) return Promise.resolve()
    const waiting = new Promise<void>((resolve, reject) => this.#waiters.push({ through, resolve, reject }))
    this.#schedule()
    return waiting
  }

  /** Commits until nothing is queued, rows settled meanwhile included; a failure is told to `onError`. */
  async flush(): Promise<void> {
    while (this.pendingCount > 0) {
      try {
        await this.durable()
      } catch {
        return
      }
    }
  }

  /** Stops the timers and commits what is queued. */
  async close(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer)
    if (this.#retryTimer !== null) clearTimeout(this.#retryTimer)
    this.#timer = null
    this.#retryTimer = null
    await this.flush()
  }

  #added(): number {
    this.#sequence += 1
    if (this.#queues.some((queue) => queue.size >= this.#rowsPerCommit)) this.#schedule()
    return this.#sequence
  }

  /** Every row up to this sequence number is committed or set aside. */
  #committedThrough(): number {
    let oldest = Infinity
    for (const queue of this.#queues) oldest = Math.min(oldest, queue.oldestSequence)
    return oldest === Infinity ? this.#sequence : oldest - 1
  }

  /** Starts a commit at the next turn of the event loop, or right after the one in flight. */
  #schedule(): void {
    if (this.#isScheduled || this.#isRunning) return
    this.#isScheduled = true
    setImmediate(() => {
      this.#isScheduled = false
      void this.#commitWhileWanted()
    })
  }

  /**
   * Commits one group after another while someone waits or a queue is full. It clears `#isRunning` in
   * the same turn as it decides to stop, so a caller arriving after that decision schedules a commit.
   */
  async #commitWhileWanted(): Promise<void> {
    this.#isRunning = true
    try {
      for (;;) {
        try {
          await this.#commitOnce()
        } catch (error) {
          this.#onError(error)
          this.#failWaiters(error)
          this.#retryLater()
          return
        }
        this.#resolveWaiters()
        const isWanted = this.#waiters.length > 0 || this.#queues.some((queue) => queue.size >= this.#rowsPerCommit)
        if (!isWanted) return
        await yieldToEventLoop()
      }
    } finally {
      this.#isRunning = false
    }
  }

  async #commitOnce(): Promise<void> {
    const taken: TakenRows[] = []
    for (const queue of this.#queues) {
      const rows = queue.take(this.#rowsPerCommit)
      if (rows !== null) taken.push(rows)
    }
    if (taken.length === 0) return
    try {
      await this.#writes.commit(taken.flatMap((rows) => rows.statements()))
    } catch (error) {
      if (!isRowDataError(error)) throw error
      for (const rows of taken) {
        await rows.commitAlone(this.#writes)
        rows.remove()
      }
      return
    }
    for (const rows of taken) rows.remove()
  }

  #resolveWaiters(): void {
    const through = this.#committedThrough()
    const waiting: Waiter[] = []
    for (const waiter of this.#waiters) {
      if (waiter.through <= through) waiter.resolve()
      else waiting.push(waiter)
    }
    this.#waiters = waiting
  }

  #failWaiters(error: unknown): void {
    const waiters = this.#waiters
    this.#waiters = []
    for (const waiter of waiters) waiter.reject(error)
  }

  #retryLater(): void {
    if (this.#retryTimer !== null || this.#timer === null) return
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null
      if (this.pendingCount > 0) this.#schedule()
    }, this.#retryMs)
    this.#retryTimer.unref()
  }
}
