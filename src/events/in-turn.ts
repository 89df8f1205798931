// A cache's whole reloads and its one-entity refreshes, run one at a time in the order they were asked
// for. Without it a periodic reload whose reads began before a change could finish after the refresh
// that change announced, and put the old state back until the next reload (with several instances on
// PostgreSQL, whose pool runs the two on different connections).

export class InTurn {
  #last: Promise<void> = Promise.resolve()

  /** Runs `task` after every task asked for before it; the result is the task's own (a failure does not stop later tasks). */
  run(task: () => Promise<void>): Promise<void> {
    const result = this.#last.then(task)
    this.#last = result.catch(() => undefined)
    return result
  }

  /** Resolves once every task asked for so far has finished. */
  settled(): Promise<void> {
    return this.#last
  }
}
