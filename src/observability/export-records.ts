// Sends a batch of records to one destination with its exporter: one request for all of them when the
// exporter takes batches (OTLP), else one request per record, `concurrency` at a time. Never throws:
// the outcome says which records failed and why, for the caller to retry. Both delivery paths (fresh
// records from memory and the outbox poll) send through here.
import type { Destination } from './destination.ts'
import type { OutboxPayload } from './destination-record.ts'
import { DestinationRefused, type ExportContext, type ExportTarget, type Exporter } from './exporters/exporter.ts'

export interface ExportFailure {
  /** Positions in the batch of the records that failed. */
  readonly indexes: readonly number[]
  readonly message: string
}

/** Empty when every record was delivered. */
export type ExportOutcome = readonly ExportFailure[]

export async function exportRecords(
  exporter: Exporter,
  payloads: readonly OutboxPayload[],
  target: ExportTarget,
  context: ExportContext,
  concurrency: number,
): Promise<ExportOutcome> {
  if (exporter.deliverMany !== undefined) {
    try {
      await exporter.deliverMany(payloads, target, context)
      return []
    } catch (error) {
      return [{ indexes: payloads.map((_, index) => index), message: failureMessage(error) }]
    }
  }
  const failures: ExportFailure[] = []
  let next = 0
  const lane = async (): Promise<void> => {
    while (next < payloads.length) {
      const index = next++
      try {
        await exporter.deliver(payloads[index] as OutboxPayload, target, context)
      } catch (error) {
        failures.push({ indexes: [index], message: failureMessage(error) })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, payloads.length) }, lane))
  return failures
}

/** The error text kept on an outbox row and on the destination (at most 500 characters). */
export function failureMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500)
}

/** The HTTP status the destination answered with, or null when it gave none (unreachable, timed out, refused before sending). */
export function failureStatus(error: unknown): number | null {
  return error instanceof DestinationRefused ? error.status : null
}

/** What an exporter needs to know of a destination. */
export function exportTarget(destination: Destination): ExportTarget {
  return { destinationId: destination.id, type: destination.type, config: destination.config }
}
