// The Responses API has no finish reason: it reports a status, an incomplete reason, and the output.

import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import type { ResponsesResponse } from './wire.ts'

/** Keyed by `incomplete_details.reason` when incomplete, else by status. */
const outcomes: Readonly<Record<string, FinishReason>> = {
  completed: 'stop',
  max_output_tokens: 'length',
  content_filter: 'content_filter',
  failed: 'error',
  cancelled: 'error',
}

export interface ResponsesOutcome {
  readonly finish_reason: FinishReason
  readonly native_finish_reason: string
}

export function mapResponsesOutcome(
  response: Pick<ResponsesResponse, 'status' | 'incomplete_details'>,
  hasToolCalls: boolean,
): ResponsesOutcome {
  const native =
    response.status === 'incomplete' ? (response.incomplete_details?.reason ?? 'incomplete') : response.status
  const mapped = Object.hasOwn(outcomes, native) ? (outcomes[native] ?? 'other') : 'other'
  return { finish_reason: mapped === 'stop' && hasToolCalls ? 'tool_calls' : mapped, native_finish_reason: native }
}
