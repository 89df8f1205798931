// What every call through the core carries, whatever its entry point: its ids, the key it is billed
// to, when it arrived, the client's headers, and the signal that says the client went away.
import type { IncomingHttpHeaders } from 'node:http'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { CancelSignal } from '../../domain/cancellation.ts'

export interface CallRequest {
  readonly generationId: string
  readonly requestId: string
  readonly key: ApiKeyRecord
  /** Epoch milliseconds when the request arrived. */
  readonly startedAt: number
  readonly headers: IncomingHttpHeaders
  /** Aborted when the client goes away. */
  readonly signal: CancelSignal
}
