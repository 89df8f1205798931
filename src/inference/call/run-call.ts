// The call core, top to bottom: choose whether the call uses the response cache (its headers, key and
// workspace) -> prepare (the adapter decodes and filters the input) -> admit it under the
// requests-per-minute rules of its key, workspace and model -> execute, through the response cache (a
// hit is answered from it after the guardrails, unbilled and charged no tokens; otherwise its estimated
// input is charged to the tokens-per-minute budgets, then the adapter plans the route once and makes its
// metered call or calls: reserve -> attempt with fallbacks -> answer -> settle or release) -> and, in
// the one `finally`, record the generation and broadcast it, store a completed miss's answer in the
// cache, deliver the held end of the answer once its ledger rows and generation record are committed,
// count the record (metrics) and settle the tokens.
// Every outcome (answered, refused, failed, cancelled) of every entry point leaves through that exit.
import { GatewayError, isGatewayError } from '../../domain/errors.ts'
import type { InferenceDeps } from '../inference-deps.ts'
import type { TokenCharge } from './call-policy.ts'
import type { CallRequest } from './call-request.ts'
import { recordCall, type CallRecord } from './record-call.ts'
import { deliverWhenDurable } from './deliver-when-durable.ts'
import { cacheChoice } from './cache-choice.ts'
import { cachedExecute, type CachingSteps, type PendingSave } from './cached-execute.ts'

/** What the core needs of a prepared call: the model its rate-limit rules are looked up by, and its estimated input. */
export interface PreparedCall {
  readonly model: string
  readonly inputTokens: number
}

/** The steps an entry point supplies; the core runs them in order and owns every exit. */
export interface CallSteps<P extends PreparedCall> extends CachingSteps<P> {
  /** Decode and filter the input: what the call asks for, its model and its estimated input tokens. */
  prepare(): P
  /** The answer captured for the response cache (JSON-safe), when the call captured one and it is whole. */
  capturedAnswer(): unknown
  /** Answers a refusal or failure (when nothing was sent yet). */
  answerError(error: GatewayError): void
  /** What to record for the generation, given the failure that ended it (if any). */
  record(failure: GatewayError | null, endedAtMs: number): CallRecord
  /** Lets the held end of the answer go: called once the call's records are durable (or could not be). */
  deliver(): void
}

export async function runCall<P extends PreparedCall>(
  request: CallRequest,
  steps: CallSteps<P>,
  deps: InferenceDeps,
): Promise<void> {
  const charged: { tokens: TokenCharge | null } = { tokens: null }
  let failure: GatewayError | null = null
  let pendingSave: PendingSave | null = null
  try {
    const choice = cacheChoice(request.headers, deps.policy.cacheSettings(request.key), deps.responseCaching.limits)
    const prepared = steps.prepare()
    const limits = deps.policy.tokenLimits
    await limits.admitCall(request.key, prepared.model)
    const chargeInput = async () => {
      charged.tokens = await limits.chargeInput(request.key, prepared.model, prepared.inputTokens)
    }
    pendingSave = await cachedExecute(request, prepared, choice, steps, deps.responseCaching.cache, chargeInput)
  } catch (error) {
    failure = toGatewayError(error, request, deps)
    steps.answerError(failure)
  } finally {
    let recorded: CallRecord
    try {
      recorded = steps.record(failure, deps.clock.now().getTime())
      recordCall(request, recorded, deps)
      if (pendingSave !== null && recorded.record.status === 'completed')
        await saveAnswer(request, pendingSave, steps, deps)
    } finally {
      await deliverWhenDurable(steps, deps.settlements, request.generationId)
    }
    deps.onRecorded?.(recorded.record)
    if (charged.tokens !== null) await deps.policy.tokenLimits.settleTokens(charged.tokens, recorded.usedTokens)
  }
}

/** Stores a completed miss's answer under its key, as the answer of this generation. */
async function saveAnswer<P extends PreparedCall>(
  request: CallRequest,
  pending: PendingSave,
  steps: CallSteps<P>,
  deps: InferenceDeps,
): Promise<void> {
  const payload = steps.capturedAnswer()
  if (payload === null || payload === undefined) return
  await deps.responseCaching.cache.save(
    pending.key,
    { sourceGenerationId: request.generationId, payload },
    pending.ttlSeconds,
  )
}

function toGatewayError(error: unknown, request: CallRequest, deps: InferenceDeps): GatewayError {
  if (request.signal.aborted) return new GatewayError('client_closed', 'The client closed the request')
  if (isGatewayError(error)) return error
  deps.logger.error({ err: error, generationId: request.generationId }, 'inference failed unexpectedly')
  return new GatewayError('internal', undefined, { cause: error })
}
