// A destination's delivered count, added to in memory and written with at most one store write in
// progress. Batches delivered while a write waits for the store (behind a flush of generation records,
// say) are summed into the next write instead of each queueing one of their own, so however slow the
// store gets, direct delivery never waits on it and the writes never pile up.
import type { Logger } from 'pino'

export type AddDelivered = (destinationId: string, count: number) => Promise<void>

export class DeliveredCounts {
  readonly #addDelivered: AddDelivered
  readonly #logger: Pick<Logger, 'warn'>
  /** Destination id → records delivered and not yet written. */
  #pending = new Map<string, number>()
  #writing: Promise<void> | null = null

  constructor(addDelivered: AddDelivered, logger: Pick<Logger, 'warn'>) {
    this.#addDelivered = addDelivered
    this.#logger = logger
  }

  add(destinationId: string, count: number): void {
    this.#pending.set(destinationId, (this.#pending.get(destinationId) ?? 0) + count)
    this.#writing ??= this.#drain().finally(() => {
      this.#writing = null
    })
  }

  /** Resolves when every count added so far is written (or its failure logged). */
  async written(): Promise<void> {
    while (this.#writing !== null) await this.#writing
  }

  async #drain(): Promise<void> {
    while (this.#pending.size > 0) {
      const counts = this.#pending
      this.#pending = new Map()
      for (const [destinationId, count] of counts) {
        try {
          await this.#addDelivered(destinationId, count)
        } catch (error) {
          this.#logger.warn(
            { err: error, destination_id: destinationId, records: count },
            'observability: could not add to a delivered count',
          )
        }
      }
    }
  }
}
