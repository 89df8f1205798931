// One interface for every delivery wire format. An exporter sends one record to one destination and
// throws (any error) when the destination did not accept it; the worker retries.
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
}
