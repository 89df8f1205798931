// enqueueGeneration(trace): the one call inference makes after a generation. It picks the workspace's
// destinations that want this trace and builds each one's record. A record goes to direct delivery
// (from memory) when that is on and takes it, else it is JSON-encoded into the outbox. It never throws
// and never blocks a response: callers need not await it, and a store failure is logged and the trace
// dropped (fail open on observability). Outbox rows of the generations finished within one turn of the
// event loop are written together, by one INSERT statement.
import type { Logger } from 'pino'
import type { Clock } from '../domain/clock.ts'
import type { SecretBox } from '../vault/secret-box.ts'
import type { ObservabilityDestinationsRepository } from '../store/repositories/observability-destinations-repository.ts'
import type { ObservabilityOutboxRepository, OutboxRow } from '../store/repositories/observability-outbox-repository.ts'
import { buildDestinationRecord, shouldReceive } from './build-destination-record.ts'
import { decodeDestination, type Destination } from './destination.ts'
import type { OutboxPayload } from './destination-record.ts'
import type { GenerationTrace } from './generation-trace.ts'
import type { DirectDelivery } from './direct-delivery.ts'
import { freshAttempt, outboxRow } from './outbox-row.ts'
import { InFlight } from '../events/in-flight.ts'
import { isoTime } from '../domain/iso-time.ts'

export interface GenerationBroadcasterDeps {
  readonly destinations: ObservabilityDestinationsRepository
  readonly outbox: ObservabilityOutboxRepository
  readonly secretBox: SecretBox
  readonly clock: Clock
  readonly logger: Pick<Logger, 'warn'>
  /** In-memory destinations (no store read per generation); without it each generation reads the store. */
  readonly cache?: { deliverable(workspaceId: string): Promise<readonly Destination[]> }
  /** Delivers fresh records from memory; without it every record is written to the outbox. */
  readonly direct?: Pick<DirectDelivery, 'offer'>
}

export interface GenerationBroadcaster {
  /** Resolves to the number of records queued for delivery (a replayed generation adds none; 0 on failure); never rejects. */
  enqueueGeneration(trace: GenerationTrace): Promise<number>
  /** Resolves once every generation handed over so far is queued (an outbox row, or held by direct delivery) or dropped. */
  settled(): Promise<void>
}

export function createGenerationBroadcaster(deps: GenerationBroadcasterDeps): GenerationBroadcaster {
  async function enqueue(trace: GenerationTrace): Promise<number> {
    const destinations =
      deps.cache === undefined
        ? (await deps.destinations.listDeliverable(trace.workspaceId)).map((row) =>
            decodeDestination(row, deps.secretBox),
          )
        : await deps.cache.deliverable(trace.workspaceId)
    const now = isoTime(deps.clock.now().getTime())
    const outboxRows: OutboxRow[] = []
    let queued = 0
    for (const destination of destinations) {
      if (!shouldReceive(trace, destination)) continue
      const payload: OutboxPayload = {
        record: buildDestinationRecord(trace, destination),
        apiKeyName: trace.apiKeyName,
      }
      const offer = deps.direct?.offer(destination, trace.generationId, payload) ?? 'declined'
      if (offer === 'queued') queued++
      if (offer !== 'declined') continue
      outboxRows.push(outboxRow(destination.id, trace.generationId, payload, now, freshAttempt(now)))
    }
    return outboxRows.length === 0 ? queued : queued + (await writer.write(outboxRows))
  }

  const writer = new OutboxBatch(deps.outbox)
  const inFlight = new InFlight()
  async function enqueueOrDrop(trace: GenerationTrace): Promise<number> {
    try {
      return await enqueue(trace)
    } catch (error) {
      deps.logger.warn(
        { err: error, generation_id: trace.generationId },
        'observability: could not enqueue generation; dropped',
      )
      return 0
    }
  }
  return {
    enqueueGeneration: (trace) => inFlight.track(enqueueOrDrop(trace)),
    settled: () => inFlight.settled(),
  }
}

/** Collects outbox rows until the next turn of the event loop, then inserts them with one statement. */
class OutboxBatch {
  #pending: { rows: readonly OutboxRow[]; resolve: (inserted: number) => void; reject: (error: unknown) => void }[] = []

  constructor(private readonly outbox: Pick<ObservabilityOutboxRepository, 'insertEach'>) {}

  write(rows: readonly OutboxRow[]): Promise<number> {
    return new Promise((resolve, reject) => {
      if (this.#pending.length === 0) setImmediate(() => void this.#flush())
      this.#pending.push({ rows, resolve, reject })
    })
  }

  async #flush(): Promise<void> {
    const batch = this.#pending
    this.#pending = []
    try {
      const inserted = await this.outbox.insertEach(batch.flatMap((entry) => entry.rows))
      let position = 0
      for (const entry of batch) {
        let count = 0
        for (const end = position + entry.rows.length; position < end; position++)
          if (inserted[position] === true) count++
        entry.resolve(count)
      }
    } catch (error) {
      for (const entry of batch) entry.reject(error)
    }
  }
}
