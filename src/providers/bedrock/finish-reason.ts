// Converse stop reasons -> canonical finish reasons.
import type { FinishReason } from '../../domain/inference/finish-reason.ts'

const stopReasons: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
}

export function mapConverseStopReason(reason: string | undefined): FinishReason {
  return reason !== undefined && Object.hasOwn(stopReasons, reason) ? stopReasons[reason]! : 'other'
}
