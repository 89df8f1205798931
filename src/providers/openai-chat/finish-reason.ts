import type { FinishReason } from '../../domain/inference/finish-reason.ts'

const finishReasons: Readonly<Record<string, FinishReason>> = {
  stop: 'stop',
  length: 'length',
  tool_calls: 'tool_calls',
  function_call: 'tool_calls',
  content_filter: 'content_filter',
}

export function mapChatFinishReason(reason: string | null | undefined): FinishReason {
  return reason != null && Object.hasOwn(finishReasons, reason) ? (finishReasons[reason] ?? 'other') : 'other'
}
