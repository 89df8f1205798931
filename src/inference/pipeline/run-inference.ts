// The inference pipeline, top to bottom: prepare -> route -> reserve -> call (with fallbacks) ->
// respond -> (finally) settle, record, broadcast, and deliver the held end of the answer once the
// records are durable. Every outcome — answered, refused, failed, cancelled — leaves through the same
// `finally`.
import type { Responder } from './responder.ts'
import { GatewayError, isGatewayError } from '../../domain/errors.ts'
import type { InferenceDeps, SpendReservation, TokenCharge, WorkspaceInferenceSettings } from '../inference-deps.ts'
import type { RoutePlan } from '../routing/plan-route.ts'
import { estimateInputTokens, estimateWorstCaseNano } from '../pricing/estimate-worst-case.ts'
import { outputAllowance } from '../pricing/output-allowance.ts'
import { AllAttemptsFailed, callWithFallbacks, type CalledEndpoint } from '../upstream/call-with-fallbacks.ts'
import { newCallFacts, type CallFacts } from './call-facts.ts'
import type { InferenceRequest } from './inference-request.ts'
import { prepareCall, type PreparedCall } from './prepare-call.ts'
import { resolvePreset } from './resolve-preset.ts'
import { filterCallContent } from './apply-guardrails.ts'
import { reportContentMatches } from './report-content-matches.ts'
import { guardedRoute } from './guarded-route.ts'
import { respondJson } from './respond-json.ts'
import { respondStream } from './respond-stream.ts'
import { routingMetadata } from './routing-metadata.ts'
import { buildGenerationContent, buildGenerationRecord } from './record-generation.ts'
import { buildGenerationTrace } from './build-generation-trace.ts'
import { deliverWhenDurable } from './deliver-when-durable.ts'
import { runServerToolLoop } from '../server-tools/server-tool-loop.ts'
import { withFields } from '../../domain/with-fields.ts'

export async function runInference(
  request: InferenceRequest,
  body: unknown,
  responder: Responder,
  deps: InferenceDeps,
): Promise<void> {
  const facts = newCallFacts()
  const settings = deps.workspaceSettings(request.key)
  let reservation: SpendReservation | null = null
  let tokens: TokenCharge | null = null
  try {
    const preset = resolvePreset(body, request.dialect.name, request.key.workspaceId, deps.presets)
    facts.prepared = guardCall(request, prepareCall(request, preset.body, settings, preset.slug), deps)
    const inputTokens = estimateInputTokens(facts.prepared.decoded.call)
    tokens = await deps.tokenLimits.admitCall(request.key, facts.prepared.models[0]!, inputTokens)
    if (facts.prepared.decoded.serverTools.length > 0)
      return await runServerToolLoop(request, facts, responder, deps, settings)
    const { plan, budgets } = guardedRoute(request, facts.prepared, deps, settings)
    const endpoints = plan.candidates.map((candidate) => candidate.endpoint)
    const worstCaseNano = estimateWorstCaseNano(facts.prepared.decoded.call, endpoints, inputTokens)
    reservation = await deps.accounting.reserve({
      key: request.key,
      generationId: request.generationId,
      attempt: 1,
      worstCaseNano,
      isByok: false,
      budgets,
      output: outputAllowance(facts.prepared.decoded.call, endpoints, inputTokens),
    })
    facts.reservedNano = reservation.amountNano
    const called = await callUpstream(request, facts, plan, deps)
    await respond(request, responder, called, facts, deps, metadataOf(request, plan, facts, called))
  } catch (error) {
    facts.error = toGatewayError(error, request, deps)
    if (!responder.isSent) sendError(request, responder, facts.error)
  } finally {
    try {
      await finish(request, facts, reservation, settings, deps)
    } finally {
      await deliverWhenDurable(responder, deps.settlements, request.generationId)
    }
    deps.onAttempts?.(facts.attempts)
    if (tokens !== null)
      await deps.tokenLimits.settleTokens(tokens, (facts.usage?.input_tokens ?? 0) + (facts.usage?.output_tokens ?? 0))
  }
}

/** Sends the answer in the client's format: one JSON body for a whole result, SSE for a stream. */
async function respond(
  request: InferenceRequest,
  responder: Responder,
  called: CalledEndpoint,
  facts: CallFacts,
  deps: InferenceDeps,
  metadata: () => Record<string, unknown> | undefined,
): Promise<void> {
  const { endpoint } = called.candidate
  if (called.outcome.kind === 'result')
    respondJson(request, responder, called.outcome.result, endpoint, facts, deps.clock, metadata)
  else await respondStream(request, responder, called.outcome.events, endpoint, facts, deps.clock, metadata)
}

/**
 * The routing metadata, read when the answer is encoded (after the generation time is known). Made
 * here rather than as a named arrow in runInference, which tsx would name at run time per request.
 */
function metadataOf(
  request: InferenceRequest,
  plan: RoutePlan,
  facts: CallFacts,
  called: CalledEndpoint,
): () => Record<string, unknown> | undefined {
  return () =>
    request.wantsMetadata
      ? routingMetadata(
          plan,
          facts.prepared!.models[0]!,
          facts.attempts,
          facts.generationTimeMs,
          called.candidate.endpoint.id,
        )
      : undefined
}

/**
 * Content filters on the decoded input: block throws 403, redaction happens before any upstream, and
 * the flag and redact rules that matched are logged (rule and counts, never the text) and counted.
 */
function guardCall(request: InferenceRequest, prepared: PreparedCall, deps: InferenceDeps): PreparedCall {
  const { call, findings } = filterCallContent(prepared.decoded.call, deps.guardrailRules(request.key))
  reportContentMatches(request, findings, deps)
  return withFields(prepared, { decoded: withFields(prepared.decoded, { call }) })
}

async function callUpstream(
  request: InferenceRequest,
  facts: CallFacts,
  plan: RoutePlan,
  deps: InferenceDeps,
): Promise<CalledEndpoint> {
  const prepared = facts.prepared!
  try {
    const called = await callWithFallbacks(
      {
        candidates: plan.candidates,
        call: withFields(prepared.decoded.call, { stream: prepared.decoded.stream }),
        signal: request.signal,
        sessionKey: prepared.sessionId === null ? null : `${request.key.workspaceId}:${prepared.sessionId}`,
      },
      { transport: deps.transport, routing: deps.routing, clock: deps.clock },
    )
    facts.attempts = called.attempts
    facts.endpoint = called.candidate.endpoint
    facts.latencyMs = called.latencyMs
    return called
  } catch (error) {
    if (error instanceof AllAttemptsFailed) facts.attempts = error.attempts
    throw error
  }
}

async function finish(
  request: InferenceRequest,
  facts: CallFacts,
  reservation: SpendReservation | null,
  settings: WorkspaceInferenceSettings,
  deps: InferenceDeps,
): Promise<void> {
  try {
    if (reservation !== null) {
      if (facts.endpoint !== null && facts.costNano > 0n) {
        const charge = await deps.accounting.settle(reservation, {
          costNano: facts.costNano + facts.unbilledExcessNano,
          model: facts.prepared!.models[0]!,
          provider: facts.endpoint.provider.slug,
          promptTokens: facts.usage?.input_tokens ?? 0,
          completionTokens: facts.usage?.output_tokens ?? 0,
          reasoningTokens: facts.usage?.reasoning_tokens ?? 0,
          cachedTokens: facts.usage?.cached_input_tokens ?? 0,
          cacheWriteTokens: facts.usage?.cache_write_tokens ?? 0,
          endUser: facts.prepared?.decoded.options.user ?? null,
        })
        facts.costNano = charge.billedNano
        facts.unbilledExcessNano = charge.unbilledExcessNano
      } else {
        await deps.accounting.release(reservation)
      }
    }
  } catch (error) {
    deps.logger.error({ err: error, generationId: request.generationId }, 'could not settle a generation')
  }
  const record = buildGenerationRecord(request, facts, deps.clock.now().getTime())
  const content = settings.shouldStoreContent(request.key, request.generationId) ? buildGenerationContent(facts) : null
  deps.generations.add(record, content)
  if (facts.endpoint === null || record.status === 'failed' || deps.onGeneration === undefined) return
  try {
    deps.onGeneration(buildGenerationTrace(request, facts, record, deps.clock.now().getTime()))
  } catch (error) {
    deps.logger.warn({ err: error }, 'generation broadcast failed')
  }
}

function toGatewayError(error: unknown, request: InferenceRequest, deps: InferenceDeps): GatewayError {
  if (request.signal.aborted) return new GatewayError('client_closed', 'The client closed the request')
  if (isGatewayError(error)) return error
  deps.logger.error({ err: error, generationId: request.generationId }, 'inference failed unexpectedly')
  return new GatewayError('internal', undefined, { cause: error })
}

function sendError(request: InferenceRequest, responder: Responder, error: GatewayError): void {
  const encoded = request.dialect.encodeError(error)
  responder.sendJson(
    encoded.status,
    encoded.body,
    withFields(error.headers ?? {}, { 'x-generation-id': request.generationId }),
  )
}
