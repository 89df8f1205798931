// The record and broadcast step of every call: the generation record is added (with its content when
// the workspace stores IO for this call), and a call that reached a provider and did not fail is
// broadcast to the observability destinations. Neither may fail the call.
import type { GenerationContent, GenerationRecord } from '../../generations/generation-record.ts'
import type { GenerationTrace } from '../../observability/generation-trace.ts'
import type { InferenceDeps } from '../inference-deps.ts'
import type { CallRequest } from './call-request.ts'

export interface CallRecord {
  readonly record: GenerationRecord
  /** Built only when the workspace stores this call's content. */
  content(): GenerationContent | null
  /** Built only when the call is broadcast. */
  trace(): GenerationTrace
  /** Input and output tokens the call used, for tokens per minute. */
  readonly usedTokens: number
}

export function recordCall(
  request: CallRequest,
  recorded: CallRecord,
  deps: Pick<InferenceDeps, 'generations' | 'policy' | 'onGeneration' | 'logger'>,
): void {
  const { record } = recorded
  const storesContent = deps.policy.workspaceSettings(request.key).shouldStoreContent(request.key, record.id)
  deps.generations.add(record, storesContent ? recorded.content() : null)
  if (record.provider === null || record.status === 'failed' || deps.onGeneration === undefined) return
  try {
    deps.onGeneration(recorded.trace())
  } catch (error) {
    deps.logger.warn({ err: error }, 'generation broadcast failed')
  }
}
