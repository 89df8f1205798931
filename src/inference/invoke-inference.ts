// The call core's invoke port, implemented: runs one call in-process for callers that are not an HTTP
// client (batch lines, server tools that ask another model, System One questions, intern turns), in a
// client dialect, collecting the answer in memory. Same core, same policy, accounting and records.
import type { Dialects } from '../dialects/dialect.ts'
import type { InferenceDeps } from './inference-deps.ts'
import type { InvokeInput, InvokeResult } from './call/invoke-port.ts'
import { MemoryResponder } from './pipeline/responder.ts'
import { runInference } from './pipeline/run-inference.ts'
import { neverCancelled } from '../domain/cancellation.ts'

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
