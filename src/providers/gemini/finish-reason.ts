import type { FinishReason } from '../../domain/inference/finish-reason.ts'

const finishReasons: Readonly<Record<string, FinishReason>> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content_filter',
  RECITATION: 'content_filter',
  LANGUAGE: 'content_filter',
  BLOCKLIST: 'content_filter',
  PROHIBITED_CONTENT: 'content_filter',
  SPII: 'content_filter',
  IMAGE_SAFETY: 'content_filter',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
  OTHER: 'other',
  FINISH_REASON_UNSPECIFIED: 'other',
}

/** Gemini says STOP after function calls too; the canonical reason is then tool_calls. */
export function mapGeminiFinishReason(reason: string | undefined, hasToolCalls: boolean): FinishReason {
  const mapped =
    reason !== undefined && Object.hasOwn(finishReasons, reason) ? (finishReasons[reason] ?? 'other') : 'other'
  return mapped === 'stop' && hasToolCalls ? 'tool_calls' : mapped
}
