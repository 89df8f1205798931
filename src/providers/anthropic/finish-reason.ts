import type { FinishReason } from '../../domain/inference/finish-reason.ts'

const stopReasons: Readonly<Record<string, FinishReason>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
  pause_turn: 'other',
}

export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  return reason != null && Object.hasOwn(stopReasons, reason) ? (stopReasons[reason] ?? 'other') : 'other'
}
