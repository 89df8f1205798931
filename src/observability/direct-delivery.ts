// Delivers fresh records straight from memory, so a healthy destination costs no store write per
// generation. Records offered within `batchDelayMs` go out together (one OTLP export request per
// destination and batch), and a destination's queue that reaches `batchSize` goes at once. An export
// costs the gateway several hundred thousand instructions whatever it carries (the request, the
// answer, the exporter's bookkeeping), so the window decides what observability costs per generation
// at a modest rate. The outbox takes over whenever memory is not enough:
// - a batch still being sent after `spillAfterMs` is written to the outbox leased to this process, so a
//   crash loses nothing older than that; its outcome then settles those rows like a poll's would;
// - a failed record is written to the outbox with one attempt counted, for the poll to retry;
// - a destination that failed is sent nothing from memory for `cooldownMs` (its records queue in the
//   outbox), and one with `concurrencyPerDestination` batches in flight and a full queue declines more;
// - stop() writes the records not yet sent to the outbox and waits for the batches in flight.
// A batch frees its destination's lane as soon as its export is answered: what the outcome writes to the
// store (failed and spilled rows; its delivered count goes with the group commit's next transaction)
// follows in the background, so a store busy with other writes never holds back delivery nor makes
// records overflow to the outbox.
// A crash loses the records queued in memory (at most `batchDelayMs` old) and those in flight for less
// than `spillAfterMs`; delivery is at-least-once, as through the outbox.
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Clock } from '../domain/clock.ts'
import type { EgressPolicy } from '../http/egress-policy.ts'
import type { ObservabilityDestinationsRepository } from '../store/repositories/observability-destinations-repository.ts'
import type { ObservabilityOutboxRepository, OutboxRow } from '../store/repositories/observability-outbox-repository.ts'
import type { Destination } from './destination.ts'
import type { OutboxPayload } from './destination-record.ts'
import type { Exporters } from './exporters/exporter.ts'
import type { DeliveredCounts } from './delivered-counts.ts'
import { afterFailedAttempt, type DeliveryOptions } from './delivery-options.ts'
import { exportRecords, exportTarget } from './export-records.ts'
import { freshAttempt, outboxRow, type OutboxAttempt } from './outbox-row.ts'

export interface DirectDeliveryDeps {
  readonly outbox: Pick<ObservabilityOutboxRepository, 'insertEach' | 'markDeliveredMany' | 'markFailed'>
  readonly destinations: Pick<ObservabilityDestinationsRepository, 'recordError'>
  /** Where the records sent from memory are counted (committed with the group commit's next transaction). */
  readonly deliveredCounts: Pick<DeliveredCounts, 'add'>
  readonly exporters: Exporters
  readonly clock: Clock
  readonly egress: EgressPolicy
  readonly logger: Pick<Logger, 'warn' | 'debug'>
  readonly options: DeliveryOptions
}

/** What became of an offered record: sent from memory, a repeat of one already queued, or left to the outbox. */
export type Offer = 'queued' | 'duplicate' | 'declined'

interface FreshRecord {
  readonly generationId: string
  readonly payload: OutboxPayload
}

/** One destination's records waiting to be sent and its batches in flight. */
interface Lane {
  destination: Destination
  queued: FreshRecord[]
  queuedIds: Set<string>
  inFlight: number
}

/** How long a destination that failed is left to the outbox. */
export const cooldownMs = 30_000

export class DirectDelivery {
  readonly #deps: DirectDeliveryDeps
  readonly #owner = randomUUID()
  readonly #lanes = new Map<string, Lane>()
  /** Destination id → when memory may send to it again (clock milliseconds). */
  readonly #coolingUntil = new Map<string, number>()
  /** Destinations (as cached) whose stored last_error this process already cleared. */
  readonly #cleared = new WeakSet<Destination>()
  /** Batches in flight and outcomes still being written. */
  readonly #batches = new Set<Promise<void>>()
  #unspilledInFlight = 0
  #timer: NodeJS.Timeout | null = null
  #stopped = false

  constructor(deps: DirectDeliveryDeps) {
    this.#deps = deps
  }

  offer(destination: Destination, generationId: string, payload: OutboxPayload): Offer {
    if (this.#stopped || this.#deps.exporters[destination.type] === null || this.#isCooling(destination.id))
      return 'declined'
    let lane = this.#lanes.get(destination.id)
    if (lane === undefined) {
      lane = { destination, queued: [], queuedIds: new Set(), inFlight: 0 }
      this.#lanes.set(destination.id, lane)
    }
    if (lane.queuedIds.has(generationId)) return 'duplicate'
    if (lane.queued.length >= this.#maxQueued()) return 'declined'
    lane.destination = destination
    lane.queued.push({ generationId, payload })
    lane.queuedIds.add(generationId)
    if (lane.queued.length === this.#deps.options.batchSize) this.#flushSoon()
    else this.#timer ??= setTimeout(() => this.#flush(), this.#deps.options.batchDelayMs).unref()
    return 'queued'
  }

  /** Records held only in memory: queued, or in flight and not yet spilled to the outbox. */
  get size(): number {
    let count = this.#unspilledInFlight
    for (const lane of this.#lanes.values()) count += lane.queued.length
    return count
  }

  /** Writes what is still queued to the outbox and waits for the batches in flight. */
  async stop(): Promise<void> {
    this.#stopped = true
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
    const left: OutboxRow[] = []
    const now = this.#deps.clock.now().toISOString()
    for (const lane of this.#lanes.values()) {
      for (const record of lane.queued) left.push(rowOf(lane.destination, record, now, freshAttempt(now)))
      lane.queued = []
      lane.queuedIds.clear()
    }
    await this.#write(left)
    while (this.#batches.size > 0) await Promise.all(this.#batches)
  }

  /** Sends at the next turn of the event loop instead of when the window ends (a lane is full). */
  #flushSoon(): void {
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = setTimeout(() => this.#flush(), 0).unref()
  }

  #flush(): void {
    this.#timer = null
    for (const [id, lane] of this.#lanes) {
      while (lane.queued.length > 0 && lane.inFlight < this.#batchesPerDestination(lane.destination)) {
        const records = lane.queued.splice(0, this.#deps.options.batchSize)
        for (const record of records) lane.queuedIds.delete(record.generationId)
        lane.inFlight++
        const batch = this.#send(lane.destination, records).finally(() => {
          lane.inFlight--
          this.#batches.delete(batch)
          if (lane.queued.length > 0) this.#timer ??= setTimeout(() => this.#flush(), 0).unref()
          else if (lane.inFlight === 0 && this.#lanes.get(id) === lane) this.#lanes.delete(id)
        })
        this.#batches.add(batch)
      }
    }
  }

  async #send(destination: Destination, records: readonly FreshRecord[]): Promise<void> {
    const { exporters, options, clock, egress } = this.#deps
    const exporter = exporters[destination.type]
    if (exporter === null) {
      const now = clock.now().toISOString()
      return this.#write(records.map((record) => rowOf(destination, record, now, freshAttempt(now))))
    }
    const spill: { rows: Promise<Map<number, string>> | null } = { rows: null }
    this.#unspilledInFlight += records.length
    const spillTimer = setTimeout(() => {
      this.#unspilledInFlight -= records.length
      spill.rows = this.#spill(destination, records)
    }, options.spillAfterMs).unref()
    const context = { egress, timeoutMs: options.requestTimeoutMs, now: clock.now() }
    const payloads = records.map((record) => record.payload)
    const failures = await exportRecords(
      exporter,
      payloads,
      exportTarget(destination),
      context,
      options.concurrencyPerDestination,
    )
    clearTimeout(spillTimer)
    if (spill.rows === null) this.#unspilledInFlight -= records.length
    if (failures.length > 0) this.#coolingUntil.set(destination.id, clock.now().getTime() + cooldownMs)
    const settled = this.#settle(destination, records, failures, spill.rows)
      .catch((error: unknown) =>
        this.#deps.logger.warn(
          { err: error, destination_id: destination.id },
          'observability: could not record a delivery outcome',
        ),
      )
      .finally(() => this.#batches.delete(settled))
    this.#batches.add(settled)
  }

  /** Records the outcome: delivered counts, failed records into the outbox, spilled rows settled. */
  async #settle(
    destination: Destination,
    records: readonly FreshRecord[],
    failures: Awaited<ReturnType<typeof exportRecords>>,
    spilling: Promise<ReadonlyMap<number, string>> | null,
  ): Promise<void> {
    const { outbox, destinations, clock, options } = this.#deps
    const spilled = spilling === null ? new Map<number, string>() : await spilling
    const failed = new Set<number>()
    const now = clock.now()
    const retry = afterFailedAttempt(1, options, now)
    const failedRows: OutboxRow[] = []
    for (const failure of failures) {
      const update = { attempts: 1, nextAttemptAt: retry.nextAttemptAt, error: failure.message, isDead: retry.isDead }
      for (const index of failure.indexes) {
        failed.add(index)
        const rowId = spilled.get(index)
        if (rowId !== undefined) await outbox.markFailed(rowId, this.#owner, update)
        else failedRows.push(rowOf(destination, records[index] as FreshRecord, now.toISOString(), update))
      }
    }
    await this.#write(failedRows)
    const deliveredRows: string[] = []
    let deliveredFromMemory = 0
    for (let index = 0; index < records.length; index++) {
      if (failed.has(index)) continue
      const rowId = spilled.get(index)
      if (rowId === undefined) deliveredFromMemory++
      else deliveredRows.push(rowId)
    }
    if (deliveredFromMemory > 0) this.#deps.deliveredCounts.add(destination.id, deliveredFromMemory)
    await outbox.markDeliveredMany(deliveredRows, this.#owner)
    const lastFailure = failures.at(-1)
    if (lastFailure !== undefined) {
      await destinations.recordError(destination.id, lastFailure.message)
      this.#deps.logger.debug(
        { destination_id: destination.id, records: failed.size, error: lastFailure.message },
        'observability: direct delivery failed',
      )
    } else if (destination.lastError !== null && !this.#cleared.has(destination)) {
      this.#cleared.add(destination)
      await destinations.recordError(destination.id, null)
    }
  }

  /** Writes a batch still in flight to the outbox, leased to this process; returns batch position → row id of the rows written. */
  async #spill(destination: Destination, records: readonly FreshRecord[]): Promise<Map<number, string>> {
    const now = this.#deps.clock.now()
    const leaseUntil = new Date(now.getTime() + this.#deps.options.leaseMs).toISOString()
    const rows = records.map((record) => ({
      ...rowOf(destination, record, now.toISOString(), freshAttempt(now.toISOString())),
      lease_owner: this.#owner,
      lease_expires_at: leaseUntil,
    }))
    const spilled = new Map<number, string>()
    try {
      const inserted = await this.#deps.outbox.insertEach(rows)
      inserted.forEach((isNew, index) => isNew && spilled.set(index, (rows[index] as OutboxRow).id))
    } catch (error) {
      this.#deps.logger.warn(
        { err: error, destination_id: destination.id },
        'observability: could not keep a slow delivery in the outbox',
      )
    }
    return spilled
  }

  async #write(rows: readonly OutboxRow[]): Promise<void> {
    if (rows.length === 0) return
    try {
      await this.#deps.outbox.insertEach(rows)
    } catch (error) {
      this.#deps.logger.warn(
        { err: error, records: rows.length },
        'observability: could not write records to the outbox; dropped',
      )
    }
  }

  #isCooling(destinationId: string): boolean {
    const until = this.#coolingUntil.get(destinationId)
    if (until === undefined) return false
    if (this.#deps.clock.now().getTime() < until) return true
    this.#coolingUntil.delete(destinationId)
    return false
  }

  /** Batch exporters (OTLP) get several batches in flight; per-record exporters spread one batch over their lanes. */
  #batchesPerDestination(destination: Destination): number {
    return this.#deps.exporters[destination.type]?.deliverMany === undefined
      ? 1
      : this.#deps.options.concurrencyPerDestination
  }

  #maxQueued(): number {
    return this.#deps.options.batchSize * this.#deps.options.concurrencyPerDestination
  }
}

const rowOf = (destination: Destination, record: FreshRecord, now: string, attempt: OutboxAttempt): OutboxRow =>
  outboxRow(destination.id, record.generationId, record.payload, now, attempt)
