// One model call of the server-tool loop, reserved and settled like any call: route, reserve the worst
// case (reservation `<generation>:<step>`), call with fallbacks (not streamed: the loop needs the whole
// answer to find tool calls), price the usage, settle — or release when the call failed. A step whose
// worst case a spend limit refuses is reported as StepUnaffordable, apart from every other failure, so
// the loop can stop and answer with the steps it already ran.
import { errorKinds, isGatewayError, type GatewayError } from '../../domain/errors.ts'
import type { CanonicalCall } from '../../domain/inference/call.ts'
import { foldStreamEvents } from '../../domain/inference/fold-stream-events.ts'
import type { CanonicalResult } from '../../domain/inference/result.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { InferenceDeps, SpendReservation, WorkspaceInferenceSettings } from '../inference-deps.ts'
import type { InferenceRequest } from '../pipeline/inference-request.ts'
import type { PreparedCall } from '../pipeline/prepare-call.ts'
import { guardedRoute } from '../pipeline/guarded-route.ts'
import { usageCostNano } from '../pricing/billable-usage.ts'
import { estimateWorstCaseNano } from '../pricing/estimate-worst-case.ts'
import type { RoutePlan } from '../routing/plan-route.ts'
import type { Charge } from '../../accounting/split-charge.ts'
import { AllAttemptsFailed, callWithFallbacks, type AttemptRecord } from '../upstream/call-with-fallbacks.ts'

export interface StepInput {
  readonly request: InferenceRequest
  readonly prepared: PreparedCall
  readonly settings: WorkspaceInferenceSettings
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
  const { request, prepared } = input
  const { plan, budgets } = guardedRoute(request, prepared, deps, input.settings)
  const worstCaseNano = estimateWorstCaseNano(
    input.call,
    plan.candidates.map((candidate) => candidate.endpoint),
  )
  const reservation = await deps.accounting
    .reserve({
      key: request.key,
      generationId: request.generationId,
      attempt: input.step,
      worstCaseNano,
      isByok: false,
      budgets,
    })
    .catch((error: unknown) => {
      throw isGatewayError(error) && error.kind === 'payment_required' ? new StepUnaffordable(error) : error
    })
  let settled = false
  try {
    const sessionKey = prepared.sessionId === null ? null : `${request.key.workspaceId}:${prepared.sessionId}`
    const called = await callWithFallbacks(
      { candidates: plan.candidates, call: { ...input.call, stream: false }, signal: request.signal, sessionKey },
      { transport: deps.transport, routing: deps.routing, clock: deps.clock },
    )
    const result =
      called.outcome.kind === 'result' ? called.outcome.result : foldStreamEvents(await collect(called.outcome.events))
    const endpoint = called.candidate.endpoint
    const charge = await settleStep(reservation, prepared, endpoint, result.usage, deps)
    settled = charge !== null
    const { billedNano: costNano, unbilledExcessNano } = charge ?? { billedNano: 0n, unbilledExcessNano: 0n }
    return {
      result,
      endpoint,
      plan,
      costNano,
      unbilledExcessNano,
      attempts: called.attempts,
      latencyMs: called.latencyMs,
    }
  } catch (error) {
    throw new StepFailed(error, error instanceof AllAttemptsFailed ? error.attempts : [])
  } finally {
    if (!settled)
      await deps.accounting
        .release(reservation)
        .catch((error: unknown) => deps.logger.error({ err: error }, 'could not release a loop step reservation'))
  }
}

/** Bills the step's priced usage (at most its reservation); null when it cost nothing, to be released. */
async function settleStep(
  reservation: SpendReservation,
  prepared: PreparedCall,
  endpoint: EndpointEntry,
  usage: Usage,
  deps: InferenceDeps,
): Promise<Charge | null> {
  const costNano = usageCostNano(endpoint.pricing, usage)
  if (costNano === 0n) return null
  return deps.accounting.settle(reservation, {
    costNano,
    model: prepared.models[0]!,
    provider: endpoint.provider.slug,
    promptTokens: usage.input_tokens,
    completionTokens: usage.output_tokens,
    reasoningTokens: usage.reasoning_tokens,
    cachedTokens: usage.cached_input_tokens,
    cacheWriteTokens: usage.cache_write_tokens,
    endUser: prepared.decoded.options.user ?? null,
  })
}

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = []
  for await (const event of events) collected.push(event)
  return collected
}
