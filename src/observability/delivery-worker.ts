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
import type { Exporter, ExportContext, ExportTarget, Exporters } from './exporters/exporter.ts'
import { createExporters } from './exporters/exporter-registry.ts'

export interface DeliveryOptions {
  readonly pollIntervalMs: number
  readonly maxAttempts: number
  readonly backoffBaseMs: number
  readonly backoffMaxMs: number
  readonly concurrencyPerDestination: number
  readonly leaseMs: number
  readonly requestTimeoutMs: number
  readonly batchSize: number
}

export const defaultDeliveryOptions: DeliveryOptions = {
  pollIntervalMs: 1000,
  maxAttempts: 8,
  backoffBaseMs: 1000,
  backoffMaxMs: 5 * 60 * 1000,
  concurrencyPerDestination: 4,
  leaseMs: 60 * 1000,
  requestTimeoutMs: 10 * 1000,
  batchSize: 100,
}

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

/** Delay before attempt `attempts + 1`: base * 2^(attempts - 1), capped. */
export function backoffDelayMs(attempts: number, options: Pick<DeliveryOptions, 'backoffBaseMs' | 'backoffMaxMs'>): number {
  return Math.min(options.backoffMaxMs, options.backoffBaseMs * 2 ** Math.max(0, attempts - 1))
}

async function runLimited<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T
      await run(item)
    }
  })
  await Promise.all(lanes)
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
    this.#unsubscribe = deps.changeBus?.subscribe('observability_destination', (id) => void this.#release(id)) ?? (() => undefined)
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
    const rows = await outbox.claimDue(now.toISOString(), this.#owner, new Date(now.getTime() + options.leaseMs).toISOString(), options.batchSize)
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
        .then((handled) => this.#schedule(handled >= this.#deps.options.batchSize ? 0 : this.#deps.options.pollIntervalMs))
    }, delayMs)
    this.#timer.unref()
  }

  async #deliverBatch(destinationId: string, rows: readonly OutboxRow[]): Promise<void> {
    const row = await this.#deps.destinations.find(destinationId)
    if (row === undefined) {
      await this.#release(destinationId)
      return this.#recordFailure(rows, undefined, new Error('destination was deleted'))
    }
    const destination = decodeDestination(row, this.#deps.secretBox)
    const exporter = this.#exporters[destination.type]
    if (exporter === null) return this.#recordFailure(rows, destination, new Error(`type ${destination.type} cannot be delivered`))
    const deliverMany = exporter.deliverMany?.bind(exporter)
    const delivered = deliverMany === undefined ? await this.#deliverEach(rows, destination, exporter) : await this.#deliverTogether(rows, destination, deliverMany)
    if (delivered.length === 0) return
    if (destination.lastError !== null && delivered.length === rows.length) await this.#deps.destinations.recordError(destination.id, null)
    await this.#deps.outbox.markDeliveredMany(delivered, this.#owner)
  }

  /** One request for every row; returns the ids delivered (all or none). */
  async #deliverTogether(rows: readonly OutboxRow[], destination: Destination, deliverMany: NonNullable<Exporter['deliverMany']>): Promise<string[]> {
    try {
      await deliverMany(rows.map((row) => JSON.parse(row.payload) as OutboxPayload), this.#target(destination), this.#context())
      return rows.map((row) => row.id)
    } catch (error) {
      await this.#recordFailure(rows, destination, error)
      return []
    }
  }

  /** One request per row, `concurrencyPerDestination` at a time; returns the ids delivered. */
  async #deliverEach(rows: readonly OutboxRow[], destination: Destination, exporter: Exporter): Promise<string[]> {
    const delivered: string[] = []
    const target = this.#target(destination)
    await runLimited(rows, this.#deps.options.concurrencyPerDestination, async (row) => {
      try {
        await exporter.deliver(JSON.parse(row.payload) as OutboxPayload, target, this.#context())
        delivered.push(row.id)
      } catch (error) {
        await this.#recordFailure([row], destination, error)
      }
    })
    return delivered
  }

  #target(destination: Destination): ExportTarget {
    return { destinationId: destination.id, type: destination.type, config: destination.config }
  }

  #context(): ExportContext {
    return { egress: this.#deps.egress, timeoutMs: this.#deps.options.requestTimeoutMs, now: this.#deps.clock.now() }
  }

  /** Each row back to pending with backoff (or dead); the destination's last_error says why. */
  async #recordFailure(rows: readonly OutboxRow[], destination: Destination | undefined, error: unknown): Promise<void> {
    const { outbox, destinations, clock, options } = this.#deps
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500)
    for (const row of rows) {
      const attempts = row.attempts + 1
      const isDead = destination === undefined || attempts >= options.maxAttempts
      const nextAttemptAt = new Date(clock.now().getTime() + backoffDelayMs(attempts, options)).toISOString()
      await outbox.markFailed(row.id, this.#owner, { attempts, nextAttemptAt, error: message, isDead })
    }
    if (destination !== undefined) await destinations.recordError(destination.id, message)
    this.#deps.logger.debug({ destination_id: rows[0]?.destination_id, rows: rows.length, error: message }, 'observability: delivery failed')
  }

  async #release(destinationId: string): Promise<void> {
    await Promise.all(Object.values(this.#exporters).map((exporter) => exporter?.release?.(destinationId).catch(() => undefined)))
  }
}
