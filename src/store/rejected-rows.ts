// Rows of a write-behind batch that the store refused on their own (a value the engine cannot hold, a
// broken constraint), set aside by `commitRows` so that the rows written with them still commit. Counted
// per table (the switchyard_store_rows_rejected_total metric) and told to the listeners, which log each
// one once with its reason.

export interface RowRejection {
  readonly table: string
  /** What identifies the row in a log line (its id; a ledger row whole, so it can be restored by hand). */
  readonly row: Readonly<Record<string, unknown>>
  /** What the engine said. */
  readonly reason: string
}

export class RejectedRows {
  readonly #counts = new Map<string, number>()
  readonly #listeners: ((rejection: RowRejection) => void)[] = []

  add(rejection: RowRejection): void {
    this.#counts.set(rejection.table, (this.#counts.get(rejection.table) ?? 0) + 1)
    for (const listener of this.#listeners) listener(rejection)
  }

  onRejected(listener: (rejection: RowRejection) => void): void {
    this.#listeners.push(listener)
  }

  /** Rows rejected since start, by table. */
  counts(): ReadonlyMap<string, number> {
    return this.#counts
  }
}
