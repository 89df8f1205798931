// One table's rows waiting for the group commit (`group-commit.ts`), by key, in the order they were
// queued (a row queued again under its key replaces the first and moves to the end), each with the
// sequence number that tells the group commit which callers of `durable()` it concerns.
import { commitRows, type RowsPlan } from './commit-rows.ts'
import type { WriteBehind, WriteStatement } from './write-behind.ts'

interface Entry<Row> {
  readonly key: string
  readonly row: Row
  readonly sequence: number
}

/** Rows taken from a queue for one transaction. */
export interface TakenRows {
  statements(): WriteStatement[]
  /** Writes these rows in a transaction of their own, setting aside the ones the store refuses alone. */
  commitAlone(writes: WriteBehind): Promise<void>
  /** Takes them off the queue (not a row queued again under its key meanwhile). */
  remove(): void
}

export class CommitQueue<Row> {
  readonly #plan: RowsPlan<Row>
  readonly #nextSequence: () => number
  readonly #entries = new Map<string, Entry<Row>>()

  constructor(plan: RowsPlan<Row>, nextSequence: () => number) {
    this.#plan = plan
    this.#nextSequence = nextSequence
  }

  add(key: string, row: Row): void {
    this.#entries.delete(key)
    this.#entries.set(key, { key, row, sequence: this.#nextSequence() })
  }

  get(key: string): Row | undefined {
    return this.#entries.get(key)?.row
  }

  get size(): number {
    return this.#entries.size
  }

  /** The sequence number of the oldest row queued; Infinity when empty. */
  get oldestSequence(): number {
    for (const entry of this.#entries.values()) return entry.sequence
    return Infinity
  }

  /** The oldest `limit` rows, or null when none are queued. */
  take(limit: number): TakenRows | null {
    if (this.#entries.size === 0) return null
    const taken: Entry<Row>[] = []
    for (const entry of this.#entries.values()) {
      if (taken.length === limit) break
      taken.push(entry)
    }
    const rows = taken.map((entry) => entry.row)
    return {
      statements: () => this.#plan.statementsOf(rows),
      commitAlone: (writes) => commitRows(writes, rows, this.#plan),
      remove: () => {
        for (const entry of taken) if (this.#entries.get(entry.key) === entry) this.#entries.delete(entry.key)
      },
    }
  }
}
