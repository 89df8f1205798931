// One interface for every delivery wire format. An exporter sends records to one destination and
// throws (any error) when the destination did not accept them; the worker retries. Exporters may keep
// connections per destination: `release` drops a destination's (its config changed or it was deleted)
// and `close` drops them all when the worker stops.
import type { EgressPolicy } from '../../http/egress-policy.ts'
import type { DestinationConfig, DestinationType } from '../destination-types.ts'
import type { OutboxPayload } from '../destination-record.ts'

export interface ExportTarget {
  readonly destinationId: string
  readonly type: DestinationType
  readonly config: DestinationConfig
}

export interface ExportContext {
  readonly egress: EgressPolicy
  readonly timeoutMs: number
  readonly now: Date
}

export interface Exporter {
  deliver(payload: OutboxPayload, target: ExportTarget, context: ExportContext): Promise<void>
  /** Sends several records to one destination in one request; on a throw none counts as delivered. */
  deliverMany?(payloads: readonly OutboxPayload[], target: ExportTarget, context: ExportContext): Promise<void>
  release?(destinationId: string): Promise<void>
  close?(): Promise<void>
}

/** Thrown by an exporter when the destination answered, with an HTTP status that is not a success. */
export class DestinationRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
    this.name = 'DestinationRefused'
  }
}

/** The exporter of each destination type; null = not deliverable yet. */
export type Exporters = Readonly<Record<DestinationType, Exporter | null>>
