// The port in-process callers use to run a call through the core (batch lines, server tools that ask
// another model, intern turns): a request body in one of the client dialects in, the answer that dialect's
// route would have sent out. Callers depend on this port, not on the pipeline that implements it.
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { DialectName } from '../../dialects/dialect.ts'
import type { GenerationApiType } from '../../generations/generation-record.ts'
import type { CancelSignal } from '../../domain/cancellation.ts'

export interface InvokeInput {
  readonly key: ApiKeyRecord
  readonly dialect: DialectName
  /** The request body in that dialect's format. */
  readonly body: unknown
  readonly requestId?: string
  readonly headers?: Readonly<Record<string, string>>
  readonly signal?: CancelSignal
  /** A generation id chosen by the caller (e.g. to make a batch item idempotent). */
  readonly generationId?: string
  /** The generation record's api_type (default 'completions'). */
  readonly apiType?: GenerationApiType
}

export interface CollectedAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The JSON body, or the SSE text of a streamed answer. */
  readonly body: unknown
}

export interface InvokeResult extends CollectedAnswer {
  readonly generationId: string
}

export type InvokePort = (input: InvokeInput) => Promise<InvokeResult>
