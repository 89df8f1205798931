// Work started and not waited for (a change event's cache refresh, a generation's broadcast), counted so
// that a caller can wait until all of it has finished: `settled()` is what Gateway.drained() awaits.

export class InFlight {
  readonly #running = new Set<Promise<unknown>>()

  /** Counts `work` until it finishes (either way); returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    const running = work.then(
      () => undefined,
      () => undefined,
    )
    this.#running.add(running)
    void running.then(() => this.#running.delete(running))
    return work
  }

  get size(): number {
    return this.#running.size
  }

  /** Resolves once every piece of work tracked so far has finished, and what it started meanwhile too. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running)
  }
}
