// Ids to forget, in the order they were added, each with the time it is due. For entries that all
// live one retention period, so that the order they were added in is the order they are due. Two flat
// arrays instead of a Map of id → time: no object per entry (a Map boxes each time, a number past the
// small-integer range), which matters when every request leaves an entry for minutes and each full
// garbage collection has to mark them all.

/** What the queue forgets ids from: a Map or a Set. */
interface Forgetting {
  delete(id: string): unknown
}

/** Consumed slots are dropped once there are this many and they are over half the queue. */
const compactAfter = 1024

export class ForgetQueue {
  #ids: string[] = []
  #dueAt: number[] = []
  #head = 0

  /** `dueAt` must not be earlier than that of any id added before. */
  add(id: string, dueAt: number): void {
    this.#ids.push(id)
    this.#dueAt.push(dueAt)
  }

  /** Deletes from `from` every id due at `now`, oldest first. */
  forgetDue(now: number, from: Forgetting): void {
    while (this.#head < this.#ids.length && (this.#dueAt[this.#head] as number) <= now) {
      from.delete(this.#ids[this.#head] as string)
      this.#ids[this.#head] = ''
      this.#head++
    }
    if (this.#head >= compactAfter && this.#head * 2 >= this.#ids.length) {
      this.#ids = this.#ids.slice(this.#head)
      this.#dueAt = this.#dueAt.slice(this.#head)
      this.#head = 0
    }
  }

  get size(): number {
    return this.#ids.length - this.#head
  }
}
