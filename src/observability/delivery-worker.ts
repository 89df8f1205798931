// Delivers the outbox: polls for due rows, leases them, sends each through its type's exporter with a
// per-destination concurrency limit, and on failure retries with exponential backoff until
// `maxAttempts`, after which the row is dead-lettered. The destination's last_error records the
// latest failure (cleared by the next success).
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Clock } from '../domain/clock.ts'
import type { EgressPolicy } from '../http/egress-policy.ts'
import type { SecretBox } from '../vault/secret-box.ts'
import type { ObservabilityDestinationsRepository } from '../store/repositories/observability-destinations-repository.ts'
import type { ObservabilityOutboxRepository, OutboxRow } from '../store/repositories/observability-outbox-repository.ts'
import { decodeDestination, type Destination } from './destination.ts'
import type { OutboxPayload } from './destination-record.ts'
import { exporters } from './exporters/exporter-registry.ts'

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
  readonly #owner = randomUUID()
  #timer: NodeJS.Timeout | null = null
  #running: Promise<void> | null = null
  #stopped = true

  constructor(deps: DeliveryWorkerDeps) {
    this.#deps = deps
  }

  start(): void {
    if (!this.#stopped) return
    this.#stopped = false
    this.#schedule(0)
  }

  async stop(): Promise<void> {
    this.#stopped = true
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
    await this.#running
  }

  /** One poll: claims and delivers a batch; returns how many rows it handled. */
  async deliverDue(): Promise<number> {
    const { outbox, clock, options } = this.#deps
    const now = clock.now()
    const rows = await outbox.claimDue(now.toISOString(), this.#owner, new Date(now.getTime() + options.leaseMs).toISOString(), options.batchSize)
    const byDestination = new Map<string, OutboxRow[]>()
    for (const row of rows) byDestination.set(row.destination_id, [...(byDestination.get(row.destination_id) ?? []), row])
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
    const destination = row === undefined ? undefined : decodeDestination(row, this.#deps.secretBox)
    const delivered: string[] = []
    await runLimited(rows, this.#deps.options.concurrencyPerDestination, async (outboxRow) => {
      if (await this.#deliverOne(outboxRow, destination)) delivered.push(outboxRow.id)
    })
    // One statement marks the whole batch (at-least-once either way: a crash before it redelivers).
    if (delivered.length > 0) await this.#deps.outbox.markDeliveredMany(delivered, this.#owner, this.#deps.clock.now().toISOString())
  }

  /** Sends one row; true when the destination accepted it (the caller marks it delivered). */
  async #deliverOne(row: OutboxRow, destination: Destination | undefined): Promise<boolean> {
    const { outbox, destinations, clock, options } = this.#deps
    try {
      if (destination === undefined) throw new Error('destination was deleted')
      const exporter = exporters[destination.type]
      if (exporter === null) throw new Error(`type ${destination.type} cannot be delivered`)
      const payload = JSON.parse(row.payload) as OutboxPayload
      const target = { destinationId: destination.id, type: destination.type, config: destination.config }
      await exporter.deliver(payload, target, { egress: this.#deps.egress, timeoutMs: options.requestTimeoutMs, now: clock.now() })
      if (destination.lastError !== null) await destinations.recordError(destination.id, null)
      return true
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500)
      const attempts = row.attempts + 1
      const isDead = destination === undefined || attempts >= options.maxAttempts
      const nextAttemptAt = new Date(clock.now().getTime() + backoffDelayMs(attempts, options)).toISOString()
      await outbox.markFailed(row.id, this.#owner, { attempts, nextAttemptAt, error: message, isDead })
      if (destination !== undefined) await destinations.recordError(destination.id, message)
      this.#deps.logger.debug({ destination_id: row.destination_id, attempts, dead: isDead, error: message }, 'observability: delivery failed')
      return false
    }
  }
}
