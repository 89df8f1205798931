// What the server-tool loop accumulates across steps: the growing conversation, output positions, the
// summed usage and cost, tool-use counts, and the facts the pipeline records for the generation.
import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import type { Message, ReasoningItem, ToolCall } from '../../domain/inference/message.ts'
import type { CanonicalResult, OutputItem } from '../../domain/inference/result.ts'
import { emptyUsage, type Usage } from '../../domain/inference/usage.ts'
import type { CallFacts } from '../pipeline/call-facts.ts'
import type { StepOutcome } from './loop-step.ts'
import type { ToolCallOutcome } from './run-server-tool.ts'
import type { ServerToolName } from '../../domain/inference/request-options.ts'
import type { LoopProgress } from './stop-conditions.ts'

/** A server-tool call the loop ran: the tool, the model's call, and the result the model reads. */
export interface ExecutedCall {
  readonly tool: ServerToolName
  readonly call: ToolCall
  readonly output: string
}

export class LoopState {
  readonly messages: Message[]
  steps = 0
  costNano = 0n
  unbilledExcessNano = 0n
  usage: Usage = emptyUsage
  requested = 0
  executed = 0
  webSearchRequests = 0
  nestedCostNano = 0n
  /** The spend limit that refused the next step, when the loop stopped before the model finished. */
  stoppedByLimit: string | null = null
  readonly #modelItems: OutputItem[] = []
  #nextIndex = 0
  #last: StepOutcome | null = null
  #firstLatencyMs: number | null = null

  constructor(messages: readonly Message[]) {
    this.messages = [...messages]
  }

  addStep(step: StepOutcome): void {
    this.steps += 1
    this.costNano += step.costNano
    this.unbilledExcessNano += step.unbilledExcessNano
    this.usage = addUsage(this.usage, step.result.usage)
    this.#last = step
    this.#firstLatencyMs ??= step.latencyMs
  }

  /** Records a model item for the final result; returns its output position. */
  modelItem(item: OutputItem): number {
    this.#modelItems.push(item)
    return this.nextIndex()
  }

  nextIndex(): number {
    return this.#nextIndex++
  }

  toolRequested(): void {
    this.requested += 1
  }

  toolExecuted(outcome: ToolCallOutcome): void {
    this.executed += 1
    this.webSearchRequests += outcome.webSearchRequests
    this.nestedCostNano += outcome.nestedCostNano
  }

  /** The assistant turn that called the tools, then one tool message per executed call. */
  appendTurn(output: readonly OutputItem[], executed: readonly ExecutedCall[]): void {
    const text = output.map((item) => (item.type === 'text' ? item.text : '')).join('')
    const reasoning = output.filter((item): item is ReasoningItem => item.type === 'reasoning')
    const toolCalls = executed.map(({ call }) => ({
      id: call.id,
      name: call.name,
      arguments: call.arguments,
      ...(call.signature === undefined ? {} : { signature: call.signature }),
    }))
    this.messages.push({
      role: 'assistant',
      content: text,
      ...(reasoning.length === 0 ? {} : { reasoning }),
      tool_calls: toolCalls,
    })
    for (const { call, output: result } of executed)
      this.messages.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: result })
  }

  progress(step: StepOutcome, calledTools: readonly string[]): LoopProgress {
    return {
      steps: this.steps,
      // Nested calls (subagent, advisor, fusion, image_generation) count toward max_cost too.
      costNano: this.costNano + this.nestedCostNano,
      totalTokens: this.usage.total_tokens,
      finishReason: step.result.finish_reason,
      nativeFinishReason: step.result.native_finish_reason ?? null,
      calledTools,
    }
  }

  mergedResult(last: StepOutcome | null): CanonicalResult {
    return {
      id: last?.result.id ?? '',
      model: last?.result.model ?? '',
      output: this.#modelItems,
      finish_reason: this.finishReason(last),
      usage: this.usage,
    }
  }

  /** A loop stopped by a spend limit ended early, like a call cut off at its output limit. */
  private finishReason(last: StepOutcome | null): FinishReason {
    return this.stoppedByLimit !== null ? 'length' : (last?.result.finish_reason ?? 'stop')
  }

  toolUseDetails(): Record<string, number> {
    return {
      tool_calls_requested: this.requested,
      tool_calls_executed: this.executed,
      web_search_requests: this.webSearchRequests,
    }
  }

  writeFacts(facts: CallFacts): void {
    const last = this.#last
    if (last === null) return
    facts.endpoint = last.endpoint
    facts.usage = this.usage
    facts.costNano = this.costNano
    facts.unbilledExcessNano = this.unbilledExcessNano
    facts.upstreamId = last.result.id
    facts.finishReason = this.finishReason(last)
    facts.nativeFinishReason = last.result.native_finish_reason ?? null
    facts.completion = this.#modelItems.map((item) => (item.type === 'text' ? item.text : '')).join('')
    facts.reasoning = this.#modelItems.map((item) => (item.type === 'reasoning' ? item.text : '')).join('')
    facts.latencyMs = this.#firstLatencyMs
  }
}

function addUsage(a: Usage, b: Usage): Usage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cached_input_tokens: a.cached_input_tokens + b.cached_input_tokens,
    cache_write_tokens: a.cache_write_tokens + b.cache_write_tokens,
    reasoning_tokens: a.reasoning_tokens + b.reasoning_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  }
}
