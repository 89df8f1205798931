// When the server-tool loop stops offering tools. Without `stop_server_tools_when`, after
// `max_tool_calls` steps (default and maximum 30); with it, as soon as any condition holds (OR), and
// `max_tool_calls` is ignored. Either way a step that called tools has them executed first, then one
// final turn runs without tools.
import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import {
  defaultMaxToolCalls,
  serverToolPrefix,
  type RequestOptions,
  type StopServerToolsCondition,
} from '../../domain/inference/request-options.ts'
import { usdToNano } from '../../domain/money.ts'

export interface LoopProgress {
  /** Model calls made so far, this one included. */
  readonly steps: number
  readonly costNano: bigint
  readonly totalTokens: number
  /** This step's finish reason (canonical) and the upstream's own. */
  readonly finishReason: FinishReason
  readonly nativeFinishReason: string | null
  /** Server tools this step called, without prefix. */
  readonly calledTools: readonly string[]
}

const holds: {
  readonly [K in StopServerToolsCondition['type']]: (
    condition: Extract<StopServerToolsCondition, { type: K }>,
    progress: LoopProgress,
  ) => boolean
} = {
  step_count_is: (condition, progress) => progress.steps >= condition.step_count,
  max_cost: (condition, progress) => progress.costNano >= usdToNano(condition.max_cost_in_dollars),
  finish_reason_is: (condition, progress) =>
    condition.reason === progress.finishReason || condition.reason === progress.nativeFinishReason,
  has_tool_call: (condition, progress) =>
    progress.calledTools.some(
      (tool) =>
        tool === condition.tool_name ||
        serverToolPrefix + tool === condition.tool_name ||
        `openrouter_${tool}` === condition.tool_name,
    ),
  max_tokens_used: (condition, progress) => progress.totalTokens >= condition.max_tokens,
}

function conditionHolds(condition: StopServerToolsCondition, progress: LoopProgress): boolean {
  return (holds[condition.type] as (condition: StopServerToolsCondition, progress: LoopProgress) => boolean)(
    condition,
    progress,
  )
}

/** Whether the loop must stop offering tools after this step. */
export function shouldStopTools(
  options: Pick<RequestOptions, 'max_tool_calls' | 'stop_server_tools_when'>,
  progress: LoopProgress,
): boolean {
  if (progress.steps >= defaultMaxToolCalls) return true
  const conditions = options.stop_server_tools_when
  if (conditions !== undefined && conditions.length > 0)
    return conditions.some((condition) => conditionHolds(condition, progress))
  return progress.steps >= Math.min(options.max_tool_calls, defaultMaxToolCalls)
}
