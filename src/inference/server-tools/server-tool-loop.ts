// The server-tool agent loop behind POST /responses: the request's `openrouter:*` tools are offered to
// the model as function tools; each model call is one step (reserved and settled on its own); when the
// model calls server tools the gateway runs them, appends the calls and results to the conversation and
// calls again, until the model answers without server tools, calls a client function tool (returned to
// the client as usual) or a stop condition fires — then pending calls are executed and one final turn
// runs with tools disabled (the tool history given as text). The answer (JSON or SSE) carries every
// step's items, the tool items typed `openrouter:<tool>`, the summed usage and cost, and
// `usage.server_tool_use_details`. When a spend limit refuses a step after the first, the loop stops and
// answers with the steps it ran, marked incomplete with the limit's name; a refused first step is a 402.
import { GatewayError, isGatewayError } from '../../domain/errors.ts'
import type { CanonicalCall, FunctionTool } from '../../domain/inference/call.ts'
import { serverToolPrefix, type ServerToolName } from '../../domain/inference/request-options.ts'
import type { OutputItem, ToolCallOutput } from '../../domain/inference/result.ts'
import { nanoToUsd } from '../../domain/money.ts'
import type { InferenceDeps } from '../inference-deps.ts'
import type { RouteRequest } from '../routing/plan-route.ts'
import { planCall, type CallPlan } from '../call/plan-call.ts'
import type { CallFacts } from '../pipeline/call-facts.ts'
import type { InferenceRequest } from '../pipeline/inference-request.ts'
import type { Responder } from '../pipeline/responder.ts'
import { routingMetadata } from '../pipeline/routing-metadata.ts'
import { LoopState, type ExecutedCall } from './loop-state.ts'
import { jsonLoopSink, streamLoopSink, type LoopSink } from './loop-output.ts'
import { runLoopStep, StepFailed, StepUnaffordable, type StepInput, type StepOutcome } from './loop-step.ts'
import { runServerTool, startedToolItem, toolItemId } from './run-server-tool.ts'
import { functionNameOf, serverToolRegistry, toolOfFunctionName } from './server-tool-registry.ts'
import type { ServerToolContext } from './server-tool.ts'
import type { ServerToolsDeps } from './server-tools-deps.ts'
import { shouldStopTools } from './stop-conditions.ts'
import { toolHistoryAsText } from './tool-history-as-text.ts'
import { toAbortSignal } from '../../domain/cancellation.ts'

export async function runServerToolLoop(
  request: InferenceRequest,
  facts: CallFacts,
  route: RouteRequest,
  responder: Responder,
  deps: InferenceDeps,
): Promise<void> {
  const prepared = facts.prepared!
  const toolDeps = deps.serverTools
  if (toolDeps === undefined)
    throw new GatewayError(
      'invalid_request',
      'Server tools are not enabled on this gateway; send function tools instead',
    )
  const offered = offeredTools(prepared.decoded.serverTools, toolDeps)
  const plan = planCall(request.key, route, deps)
  const echo = prepared.decoded.echo
  const encodeBase = {
    generationId: request.generationId,
    model: prepared.models[0]!,
    provider: '',
    createdAt: Math.floor(request.startedAt / 1000),
    isByok: false,
    echo,
  }
  const sink = prepared.decoded.stream
    ? streamLoopSink(request, responder, encodeBase)
    : jsonLoopSink(request, responder, encodeBase)
  const state = new LoopState(prepared.decoded.call.messages)
  facts.streamed = prepared.decoded.stream
  try {
    await loop({ request, facts, deps, plan, toolDeps, offered, sink, state })
  } catch (error) {
    const failure = error instanceof StepFailed ? error.cause : error
    if (isGatewayError(failure) && !request.signal.aborted) sink.fail(failure)
    else if (!request.signal.aborted) sink.fail(new GatewayError('internal'))
    throw failure
  } finally {
    state.writeFacts(facts)
    facts.generationTimeMs = deps.clock.now().getTime() - request.startedAt
    facts.cancelled = request.signal.aborted
  }
}

interface LoopInput {
  readonly request: InferenceRequest
  readonly facts: CallFacts
  readonly deps: InferenceDeps
  readonly plan: CallPlan
  readonly toolDeps: ServerToolsDeps
  readonly offered: readonly ServerToolName[]
  readonly sink: LoopSink
  readonly state: LoopState
}

async function loop(input: LoopInput): Promise<void> {
  const { request, facts, deps, state, sink } = input
  const prepared = facts.prepared!
  const base = prepared.decoded.call
  const { tools: clientTools = [], tool_choice: _choice, parallel_tool_calls: _parallel, ...bare } = base
  const offeredFunctions = input.offered.map(toFunctionTool)
  const context = toolContext(input)
  let toolsOn = true
  let last: StepOutcome | null = null
  for (let step = 1; ; step += 1) {
    const call: Omit<CanonicalCall, 'model'> = toolsOn
      ? { ...base, messages: state.messages, tools: [...clientTools, ...offeredFunctions] }
      : { ...bare, messages: toolHistoryAsText(state.messages) }
    const outcome = await runStep(input, { request, prepared, plan: input.plan, call, step })
    if (outcome instanceof StepUnaffordable) {
      state.stoppedByLimit = outcome.limit
      break
    }
    last = outcome
    state.addStep(last)
    const serverCalls = await emitStep(last.result.output, toolsOn, input, context)
    const clientCalled = last.result.output.some(
      (item) => item.type === 'tool-call' && toolOfFunctionName(item.name, input.offered) === undefined,
    )
    if (!toolsOn || serverCalls.length === 0 || clientCalled) break
    state.appendTurn(last.result.output, serverCalls)
    toolsOn = !shouldStopTools(
      prepared.decoded.options,
      state.progress(
        last,
        serverCalls.map((call) => call.tool),
      ),
    )
  }
  sink.finish({
    result: state.mergedResult(last),
    costUsd: nanoToUsd(state.costNano),
    completedAt: Math.floor(deps.clock.now().getTime() / 1000),
    usageExtra: { server_tool_use_details: state.toolUseDetails() },
    ...(state.stoppedByLimit === null ? {} : { incompleteReason: state.stoppedByLimit }),
    ...(request.wantsMetadata ? { metadata: loopMetadata(input, last) } : {}),
  })
}

/**
 * One step, its attempts added to the facts. A later step that a spend limit refuses comes back as
 * StepUnaffordable so the loop answers with the steps it ran; a refused first step is the request's 402.
 */
async function runStep(input: LoopInput, step: StepInput): Promise<StepOutcome | StepUnaffordable> {
  const { facts } = input
  try {
    const outcome = await runLoopStep(step, input.deps)
    facts.attempts = [...facts.attempts, ...outcome.attempts]
    return outcome
  } catch (error) {
    if (error instanceof StepFailed) facts.attempts = [...facts.attempts, ...error.attempts]
    if (error instanceof StepUnaffordable) {
      if (step.step > 1) return error
      throw error.refusal
    }
    throw error
  }
}

/** Sends the step's items in order; server-tool calls are run and replaced by their tool items. */
async function emitStep(
  output: readonly OutputItem[],
  toolsOn: boolean,
  input: LoopInput,
  context: ServerToolContext,
): Promise<ExecutedCall[]> {
  const { state, sink, request } = input
  const executed: ExecutedCall[] = []
  for (const item of output) {
    const tool = item.type === 'tool-call' ? toolOfFunctionName(item.name, input.offered) : undefined
    if (tool === undefined) {
      sink.modelItem(state.modelItem(item), item)
      continue
    }
    if (!toolsOn) continue
    const call = item as ToolCallOutput
    const index = state.nextIndex()
    const id = toolItemId(request.generationId, index)
    sink.toolItem(index, startedToolItem(tool, id), 'added')
    state.toolRequested()
    const requestSettings = input.facts.prepared!.decoded.serverToolSettings[serverToolPrefix + tool] ?? {}
    const outcome = await runServerTool(tool, call.arguments, id, { ...context, requestSettings })
    state.toolExecuted(outcome)
    sink.toolItem(index, outcome.item, 'done')
    executed.push({ tool, call, output: outcome.output })
  }
  return executed
}

function offeredTools(listed: readonly string[], toolDeps: ServerToolsDeps): ServerToolName[] {
  const tools = listed.map((type) => type.slice(serverToolPrefix.length) as ServerToolName)
  for (const tool of tools) {
    const problem = serverToolRegistry[tool].unavailable?.(toolDeps.settings) ?? null
    if (problem !== null) throw new GatewayError('invalid_request', problem)
  }
  return tools
}

function toFunctionTool(tool: ServerToolName): FunctionTool {
  const definition = serverToolRegistry[tool]
  return {
    type: 'function',
    name: functionNameOf(tool),
    description: definition.description,
    parameters: definition.parameters,
  }
}

function toolContext(input: LoopInput): ServerToolContext {
  const { request, deps, toolDeps, facts } = input
  const prepared = facts.prepared!
  return {
    clock: deps.clock,
    key: request.key,
    model: prepared.models[0]!,
    catalog: deps.routing.catalog,
    settings: toolDeps.settings,
    egress: toolDeps.egress,
    requestSettings: {},
    signal: toAbortSignal(request.signal),
    invoke: (nested) => toolDeps.invoke({ ...nested, key: request.key }),
    toolCatalog: Object.entries(serverToolRegistry).map(([name, tool]) => ({ name, description: tool.description })),
  }
}

function loopMetadata(input: LoopInput, last: StepOutcome | null): Record<string, unknown> {
  const { facts, state } = input
  const base =
    last === null
      ? {}
      : routingMetadata(last.plan, facts.prepared!.models[0]!, facts.attempts, facts.generationTimeMs, last.endpoint.id)
  const summary = `${state.executed} server tool call(s) over ${state.steps} model call(s)`
  return {
    ...base,
    pipeline: [{ type: 'server_tools', name: 'server_tools', summary, cost_usd: nanoToUsd(state.costNano) }],
  }
}
