// Runs one inference call in-process, for callers that are not an HTTP client: batch items, server
// tools that ask another model, intern runtimes. Same pipeline, same accounting and records.
import type { ApiKeyRecord } from '../domain/identity.ts'
import type { DialectName, Dialects } from '../dialects/dialect.ts'
import type { InferenceDeps } from './inference-deps.ts'
import type { GenerationApiType } from '../generations/generation-record.ts'
import { MemoryResponder, type CollectedAnswer } from './pipeline/responder.ts'
import { runInference } from './pipeline/run-inference.ts'
import { neverCancelled, type CancelSignal } from '../domain/cancellation.ts'

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

export interface InvokeResult extends CollectedAnswer {
  readonly generationId: string
}

export async function invokeInference(
  input: InvokeInput,
  dialects: Dialects,
  deps: InferenceDeps,
): Promise<InvokeResult> {
  const now = deps.clock.now().getTime()
  const generationId = input.generationId ?? deps.generationIds.next(now)
  const responder = new MemoryResponder()
  await runInference(
    {
      generationId,
      requestId: input.requestId ?? generationId,
      key: input.key,
      dialect: dialects[input.dialect],
      startedAt: now,
      headers: { ...input.headers },
      signal: input.signal ?? neverCancelled,
      wantsMetadata: false,
      ...(input.apiType === undefined ? {} : { apiType: input.apiType }),
    },
    input.body,
    responder,
    deps,
  )
  const answer = responder.answer()
  if (answer === null) throw new Error('the inference pipeline returned without answering')
  return { ...answer, generationId }
}
