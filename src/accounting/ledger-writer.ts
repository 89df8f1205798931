// Writes ledger rows off the response path: settlements enqueue rows in memory and a batched writer
// inserts them every `flushIntervalMs`, as soon as `maxBatchRows` are waiting, and on close, one slice of
// rows per transaction (`inSlices`). Inserts are idempotent on (generation_id, attempt), so a failed
// slice is simply kept and retried by the next flush; rows are never dropped (fail closed on money).
import { inSlices } from '../store/batch-insert.ts'
import type { LedgerRepository, LedgerRow } from '../store/repositories/ledger-repository.ts'

export interface LedgerWriterOptions {
  readonly flushIntervalMs?: number
  readonly maxBatchRows?: number
  /** Told about a failed batch; the rows stay queued for the next flush. */
  readonly onError: (error: unknown) => void
}

export class LedgerWriter {
  readonly #repository: LedgerRepository
  readonly #flushIntervalMs: number
  readonly #maxBatchRows: number
  readonly #onError: (error: unknown) => void
  readonly #pending = new Map<string, LedgerRow>()
  #timer: ReturnType<typeof setInterval> | null = null
  #chain: Promise<void> = Promise.resolve()

  constructor(repository: LedgerRepository, options: LedgerWriterOptions) {
    this.#repository = repository
    this.#flushIntervalMs = options.flushIntervalMs ?? 200
    this.#maxBatchRows = options.maxBatchRows ?? 500
    this.#onError = options.onError
  }

  start(): void {
    if (this.#timer !== null) return
    this.#timer = setInterval(() => void this.flush(), this.#flushIntervalMs)
    this.#timer.unref()
  }

  /** Queues a row; a row with the same id already queued is replaced (settlement is idempotent). */
  enqueue(row: LedgerRow): void {
    this.#pending.set(row.id, row)
    if (this.#pending.size >= this.#maxBatchRows) void this.flush()
  }

  get pendingCount(): number {
    return this.#pending.size
  }

  /** Writes what is queued now; resolves when it is stored or the failure was reported. Flushes run one at a time. */
  flush(): Promise<void> {
    this.#chain = this.#chain.then(() => this.#drain())
    return this.#chain
  }

  /** Stops the timer and writes everything queued. */
  async close(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer)
    this.#timer = null
    await this.flush()
  }

  async #drain(): Promise<void> {
    try {
      while (this.#pending.size > 0) {
        await inSlices([...this.#pending.values()], async (slice) => {
          await this.#repository.insertMany(slice)
          for (const row of slice) {
            if (this.#pending.get(row.id) === row) this.#pending.delete(row.id)
          }
        })
      }
    } catch (error) {
      this.#onError(error)
    }
  }
}
