// One model call of the server-tool loop, a metered call of the core like any other: reserve the
// step's worst case (reservation `<generation>:<step>`) against the plan the loop made once, call with
// fallbacks (not streamed: the loop needs the whole answer to find tool calls), charge the priced usage
// (settled, or released when the call failed, by the core). A step whose worst case a spend limit
// refuses is reported as StepUnaffordable, apart from every other failure, so the loop can stop and
// answer with the steps it already ran.
import { errorKinds, isGatewayError, type GatewayError } from '../../domain/errors.ts'
import type { CanonicalCall } from '../../domain/inference/call.ts'
import { foldStreamEvents } from '../../domain/inference/fold-stream-events.ts'
import type { CanonicalResult } from '../../domain/inference/result.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { InferenceDeps } from '../inference-deps.ts'
import type { InferenceRequest } from '../pipeline/inference-request.ts'
import type { PreparedCall } from '../pipeline/prepare-call.ts'
import { usageBill } from '../pipeline/usage-bill.ts'
import { estimateInputTokens, estimateWorstCaseNano } from '../pricing/estimate-worst-case.ts'
import { outputAllowance } from '../pricing/output-allowance.ts'
import type { RoutePlan } from '../routing/plan-route.ts'
import type { CallPlan } from '../call/plan-call.ts'
import { meteredCall, type Meter } from '../call/metered-call.ts'
import { AllAttemptsFailed, callWithFallbacks, type AttemptRecord } from '../upstream/call-with-fallbacks.ts'

export interface StepInput {
  readonly request: InferenceRequest
  readonly prepared: PreparedCall
  /** The route and budgets, planned once for the whole loop. */
  readonly plan: CallPlan
  readonly call: Omit<CanonicalCall, 'model'>
  /** 1-based; also the reservation's attempt number. */
  readonly step: number
}

export interface StepOutcome {
  readonly result: CanonicalResult
  readonly endpoint: EndpointEntry
  readonly plan: RoutePlan
  /** What the step was billed (its priced usage, at most its reservation). */
  readonly costNano: bigint
  /** What its priced usage came to above its reservation, left unbilled. */
  readonly unbilledExcessNano: bigint
  readonly attempts: readonly AttemptRecord[]
  readonly latencyMs: number
}

export class StepFailed extends Error {
  constructor(
    override readonly cause: unknown,
    readonly attempts: readonly AttemptRecord[],
  ) {
    super('a server-tool loop step failed')
  }
}

/** A spend limit (key limit, budget, credits) refused the step's reservation: nothing was called or billed for it. */
export class StepUnaffordable extends Error {
  constructor(readonly refusal: GatewayError) {
    super(refusal.message)
  }

  /** The limit that refused, as the refusal names it in `metadata.limit_source` (`key_limit`, `budget`, `credits`). */
  get limit(): string {
    const source = this.refusal.metadata?.limit_source
    return typeof source === 'string' ? source : errorKinds[this.refusal.kind].reason
  }
}

export async function runLoopStep(input: StepInput, deps: InferenceDeps): Promise<StepOutcome> {
  const endpoints = input.plan.plan.candidates.map((candidate) => candidate.endpoint)
  const inputTokens = estimateInputTokens(input.call)
  const spend = {
    attempt: input.step,
    worstCaseNano: estimateWorstCaseNano(input.call, endpoints, inputTokens),
    budgets: input.plan.budgets,
    output: outputAllowance(input.call, endpoints, inputTokens),
  }
  try {
    return await meteredCall(input.request, spend, deps, (meter) => attemptStep(input, meter, deps))
  } catch (error) {
    // Every failure after the reservation is a StepFailed; a refused reservation is the step unaffordable.
    if (isGatewayError(error) && error.kind === 'payment_required') throw new StepUnaffordable(error)
    throw error
  }
}

async function attemptStep(input: StepInput, meter: Meter, deps: InferenceDeps): Promise<StepOutcome> {
  const { request, prepared } = input
  try {
    const sessionKey = prepared.sessionId === null ? null : `${request.key.workspaceId}:${prepared.sessionId}`
    const called = await callWithFallbacks(
      {
        candidates: input.plan.plan.candidates,
        call: { ...input.call, stream: false },
        signal: request.signal,
        sessionKey,
      },
      { transport: deps.transport, routing: deps.routing, clock: deps.clock },
    )
    const result =
      called.outcome.kind === 'result' ? called.outcome.result : foldStreamEvents(await collect(called.outcome.events))
    const endpoint = called.candidate.endpoint
    const charge = meter.charge(usageBill(prepared, endpoint, result.usage))
    return {
      result,
      endpoint,
      plan: input.plan.plan,
      costNano: charge.billedNano,
      unbilledExcessNano: charge.unbilledExcessNano,
      attempts: called.attempts,
      latencyMs: called.latencyMs,
    }
  } catch (error) {
    throw new StepFailed(error, error instanceof AllAttemptsFailed ? error.attempts : [])
  }
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = []
  for await (const event of events) collected.push(event)
  return collected
}
