// Delivers the outbox: polls for due rows and leases them. A destination whose exporter takes batches
// (OTLP) gets all its rows of the poll in one request; the others get one request per row with a
// per-destination concurrency limit. A failed request fails every row it carried: each is retried with
// exponential backoff until `maxAttempts`, after which it is dead-lettered. Delivered rows are marked in
// one statement (at-least-once: a crash before it redelivers them). The destination's last_error
// records the latest failure (cleared by a poll that delivers all of its rows). Exporters keep
// connections per destination; a change to a destination releases them, and stop() closes them all.
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Clock } from '../domain/clock.ts'
import type { ChangeBus } from '../events/change-bus.ts'
import type { EgressPolicy } from '../http/egress-policy.ts'
import type { SecretBox } from '../vault/secret-box.ts'
import type { ObservabilityDestinationsRepository } from '../store/repositories/observability-destinations-repository.ts'
import type { ObservabilityOutboxRepository, OutboxRow } from '../store/repositories/observability-outbox-repository.ts'
import { decodeDestination, type Destination } from './destination.ts'
import type { OutboxPayload } from './destination-record.ts'
import type { ExportContext, Exporters } from './exporters/exporter.ts'
import { createExporters } from './exporters/exporter-registry.ts'
import { afterFailedAttempt, type DeliveryOptions } from './delivery-options.ts'
import { exportRecords, exportTarget } from './export-records.ts'

export interface DeliveryWorkerDeps {
  readonly destinations: ObservabilityDestinationsRepository
  readonly outbox: ObservabilityOutboxRepository
  readonly secretBox: SecretBox
  readonly clock: Clock
  readonly egress: EgressPolicy
  readonly logger: Pick<Logger, 'warn' | 'debug'>
  readonly options: DeliveryOptions
  /** Announces destination changes, so their connections are released; without it they are only rebuilt on a config change. */
  readonly changeBus?: ChangeBus
  /** The exporter of each type; one set per worker by default. */
  readonly exporters?: Exporters
}

export class DeliveryWorker {
  readonly #deps: DeliveryWorkerDeps
  readonly #exporters: Exporters
  readonly #owner = randomUUID()
  readonly #unsubscribe: () => void
  #timer: NodeJS.Timeout | null = null
  #running: Promise<void> | null = null
  #stopped = true

  constructor(deps: DeliveryWorkerDeps) {
    this.#deps = deps
    this.#exporters = deps.exporters ?? createExporters()
    this.#unsubscribe =
      deps.changeBus?.subscribe('observability_destination', (id) => void this.#release(id)) ?? (() => undefined)
  }

  start(): void {
    if (!this.#stopped) return
    this.#stopped = false
    this.#schedule(0)
  }

  /** Stops polling, waits for the poll in flight and closes every exporter's connections. */
  async stop(): Promise<void> {
    this.#stopped = true
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
    await this.#running
    this.#unsubscribe()
    await Promise.all(Object.values(this.#exporters).map((exporter) => exporter?.close?.()))
  }

  /** One poll: claims and delivers a batch; returns how many rows it handled. */
  async deliverDue(): Promise<number> {
    const { outbox, clock, options } = this.#deps
    const now = clock.now()
    const rows = await outbox.claimDue(
      now.toISOString(),
      this.#owner,
      new Date(now.getTime() + options.leaseMs).toISOString(),
      options.batchSize,
    )
    const byDestination = new Map<string, OutboxRow[]>()
    for (const row of rows) {
      const batch = byDestination.get(row.destination_id)
      if (batch === undefined) byDestination.set(row.destination_id, [row])
      else batch.push(row)
    }
    await Promise.all([...byDestination].map(([destinationId, batch]) => this.#deliverBatch(destinationId, batch)))
    return rows.length
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return
    this.#timer = setTimeout(() => {
      this.#running = this.deliverDue()
        .catch((error: unknown) => {
          this.#deps.logger.warn({ err: error }, 'observability: delivery poll failed')
          return 0
        })
        .then((handled) =>
          this.#schedule(handled >= this.#deps.options.batchSize ? 0 : this.#deps.options.pollIntervalMs),
        )
    }, delayMs)
    this.#timer.unref()
  }

  async #deliverBatch(destinationId: string, rows: readonly OutboxRow[]): Promise<void> {
    const row = await this.#deps.destinations.find(destinationId)
    if (row === undefined) {
      await this.#release(destinationId)
      return this.#recordFailure(rows, undefined, 'destination was deleted')
    }
    const destination = decodeDestination(row, this.#deps.secretBox)
    const exporter = this.#exporters[destination.type]
    if (exporter === null) return this.#recordFailure(rows, destination, `type ${destination.type} cannot be delivered`)
    const payloads = rows.map((each) => JSON.parse(each.payload) as OutboxPayload)
    const failures = await exportRecords(
      exporter,
      payloads,
      exportTarget(destination),
      this.#context(),
      this.#deps.options.concurrencyPerDestination,
    )
    const failed = new Set<number>()
    for (const failure of failures) {
      for (const index of failure.indexes) failed.add(index)
      await this.#recordFailure(
        failure.indexes.map((index) => rows[index] as OutboxRow),
        destination,
        failure.message,
      )
    }
    const delivered = rows.filter((_, index) => !failed.has(index)).map((each) => each.id)
    if (delivered.length === 0) return
    if (destination.lastError !== null && failures.length === 0)
      await this.#deps.destinations.recordError(destination.id, null)
    await this.#deps.outbox.markDeliveredMany(delivered, this.#owner)
  }

  #context(): ExportContext {
    return { egress: this.#deps.egress, timeoutMs: this.#deps.options.requestTimeoutMs, now: this.#deps.clock.now() }
  }

  /** Each row back to pending with backoff (or dead); the destination's last_error says why. */
  async #recordFailure(
    rows: readonly OutboxRow[],
    destination: Destination | undefined,
    message: string,
  ): Promise<void> {
    const { outbox, destinations, clock, options } = this.#deps
    for (const row of rows) {
      const attempts = row.attempts + 1
      const next = afterFailedAttempt(attempts, options, clock.now())
      await outbox.markFailed(row.id, this.#owner, {
        attempts,
        nextAttemptAt: next.nextAttemptAt,
        error: message,
        isDead: destination === undefined || next.isDead,
      })
    }
    if (destination !== undefined) await destinations.recordError(destination.id, message)
    this.#deps.logger.debug(
      { destination_id: rows[0]?.destination_id, rows: rows.length, error: message },
      'observability: delivery failed',
    )
  }

  async #release(destinationId: string): Promise<void> {
    await Promise.all(
      Object.values(this.#exporters).map((exporter) => exporter?.release?.(destinationId).catch(() => undefined)),
    )
  }
}
