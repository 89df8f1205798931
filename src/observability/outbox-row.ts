// One record as an outbox row: what both the broadcaster (a record direct delivery did not take) and
// direct delivery (a failed, spilled or left-over record) write. Unleased unless the caller leases it.
import { randomUUID } from 'node:crypto'
import type { OutboxRow } from '../store/repositories/observability-outbox-repository.ts'
import type { OutboxPayload } from './destination-record.ts'

export interface OutboxAttempt {
  readonly attempts: number
  readonly nextAttemptAt: string
  readonly error?: string
  readonly isDead?: boolean
}

/** A fresh record: due at `now`, no attempt made. */
export const freshAttempt = (now: string): OutboxAttempt => ({ attempts: 0, nextAttemptAt: now })

export function outboxRow(
  destinationId: string,
  generationId: string,
  payload: OutboxPayload,
  now: string,
  attempt: OutboxAttempt,
): OutboxRow {
  return {
    id: randomUUID(),
    destination_id: destinationId,
    generation_id: generationId,
    payload: JSON.stringify(payload),
    status: attempt.isDead === true ? 'dead' : 'pending',
    attempts: attempt.attempts,
    next_attempt_at: attempt.nextAttemptAt,
    lease_owner: null,
    lease_expires_at: null,
    last_error: attempt.error ?? null,
    created_at: now,
    delivered_at: null,
  }
}
