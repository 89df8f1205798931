// enqueueGeneration(trace): the one call inference makes after a generation. It picks the workspace's
// destinations that want this trace, builds each one's record (JSON-encoded once) and writes them to
// the outbox. It never throws and never blocks a response: callers need not await it, and a store
// failure is logged and the trace dropped (fail open on observability). Outbox rows of the generations
// finished within one turn of the event loop are written together, by one INSERT statement.
import { randomUUID } from 'node:crypto'
import type { Logger } from 'pino'
import type { Clock } from '../domain/clock.ts'
import type { SecretBox } from '../vault/secret-box.ts'
import type { ObservabilityDestinationsRepository } from '../store/repositories/observability-destinations-repository.ts'
import type { ObservabilityOutboxRepository, OutboxRow } from '../store/repositories/observability-outbox-repository.ts'
import { buildDestinationRecord, shouldReceive } from './build-destination-record.ts'
import { decodeDestination, type Destination } from './destination.ts'
import type { OutboxPayload } from './destination-record.ts'
import type { GenerationTrace } from './generation-trace.ts'

export interface GenerationBroadcasterDeps {
  readonly destinations: ObservabilityDestinationsRepository
  readonly outbox: ObservabilityOutboxRepository
  readonly secretBox: SecretBox
  readonly clock: Clock
  readonly logger: Pick<Logger, 'warn'>
  /** In-memory destinations (no store read per generation); without it each generation reads the store. */
  readonly cache?: { deliverable(workspaceId: string): Promise<readonly Destination[]> }
}

export interface GenerationBroadcaster {
  /** Resolves to the number of new outbox rows (a replayed generation adds none; 0 on failure); never rejects. */
  enqueueGeneration(trace: GenerationTrace): Promise<number>
}

export function createGenerationBroadcaster(deps: GenerationBroadcasterDeps): GenerationBroadcaster {
  async function enqueue(trace: GenerationTrace): Promise<number> {
    const destinations =
      deps.cache === undefined
        ? (await deps.destinations.listDeliverable(trace.workspaceId)).map((row) => decodeDestination(row, deps.secretBox))
        : await deps.cache.deliverable(trace.workspaceId)
    const now = deps.clock.now().toISOString()
    const outboxRows: OutboxRow[] = []
    for (const destination of destinations) {
      if (!shouldReceive(trace, destination)) continue
      const payload: OutboxPayload = { record: buildDestinationRecord(trace, destination), apiKeyName: trace.apiKeyName }
      outboxRows.push({
        id: randomUUID(),
        destination_id: destination.id,
        generation_id: trace.generationId,
        payload: JSON.stringify(payload),
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        lease_owner: null,
        lease_expires_at: null,
        last_error: null,
        created_at: now,
        delivered_at: null,
      })
    }
    return outboxRows.length === 0 ? 0 : writer.write(outboxRows)
  }

  const writer = new OutboxBatch(deps.outbox)
  return {
    async enqueueGeneration(trace) {
      try {
        return await enqueue(trace)
      } catch (error) {
        deps.logger.warn({ err: error, generation_id: trace.generationId }, 'observability: could not enqueue generation; dropped')
        return 0
      }
    },
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
        for (const end = position + entry.rows.length; position < end; position++) if (inserted[position] === true) count++
        entry.resolve(count)
      }
    } catch (error) {
      for (const entry of batch) entry.reject(error)
    }
  }
}
