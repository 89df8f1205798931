// The client-dialect adapter of the call core (Chat Completions, Responses, Messages, and every
// in-process caller through the invoke port): prepare = preset -> decode -> content filters; execute =
// the server-tool loop when the request names server tools, else plan -> one metered call (reserve ->
// call with fallbacks -> answer as JSON or SSE -> settle or release); replay = a response-cache hit
// answered through the same JSON or SSE path, unbilled, after the plan's guardrails; record = the
// generation record and trace from the call facts. The core (src/inference/call/run-call.ts) owns every exit.
import type { Responder } from './responder.ts'
import type { GatewayError } from '../../domain/errors.ts'
import type { InferenceDeps } from '../inference-deps.ts'
import type { WorkspaceInferenceSettings } from '../call/call-policy.ts'
import type { RoutePlan } from '../routing/plan-route.ts'
import { estimateInputTokens, estimateWorstCaseNano } from '../pricing/estimate-worst-case.ts'
import { outputAllowance } from '../pricing/output-allowance.ts'
import { AllAttemptsFailed, callWithFallbacks, type CalledEndpoint } from '../upstream/call-with-fallbacks.ts'
import { newCallFacts, type CallFacts } from './call-facts.ts'
import type { InferenceRequest } from './inference-request.ts'
import { prepareCall, type PreparedCall } from './prepare-call.ts'
import { resolvePreset } from './resolve-preset.ts'
import { filterCallContent } from '../call/apply-guardrails.ts'
import { reportContentMatches } from '../call/report-content-matches.ts'
import { planCall } from '../call/plan-call.ts'
import { Meter, meteredCall } from '../call/metered-call.ts'
import type { CacheableCall, CacheTurn } from '../call/cached-execute.ts'
import type { CachedAnswer } from '../../response-cache/response-cache.ts'
import { readCachedDialectAnswer, unbilledEvents, unbilledResult } from './cached-dialect-answer.ts'
import { runCall, type CallSteps } from '../call/run-call.ts'
import type { CallRecord } from '../call/record-call.ts'
import { textRoute } from './text-route.ts'
import { respondJson } from './respond-json.ts'
import { respondStream } from './respond-stream.ts'
import { routingMetadata } from './routing-metadata.ts'
import { buildGenerationContent, buildGenerationRecord } from './record-generation.ts'
import { buildGenerationTrace } from './build-generation-trace.ts'
import { runServerToolLoop } from '../server-tools/server-tool-loop.ts'
import { withFields } from '../../domain/with-fields.ts'

interface Prepared {
  readonly call: PreparedCall
  readonly model: string
  readonly inputTokens: number
}

export async function runInference(
  request: InferenceRequest,
  body: unknown,
  responder: Responder,
  deps: InferenceDeps,
): Promise<void> {
  await runCall(request, new DialectCall(request, body, responder, deps), deps)
}

class DialectCall implements CallSteps<Prepared> {
  readonly #facts: CallFacts = newCallFacts()
  readonly #settings: WorkspaceInferenceSettings

  constructor(
    readonly request: InferenceRequest,
    readonly body: unknown,
    readonly responder: Responder,
    readonly deps: InferenceDeps,
  ) {
    this.#settings = deps.policy.workspaceSettings(request.key)
  }

  prepare(): Prepared {
    const { request, deps } = this
    const preset = resolvePreset(this.body, request.dialect.name, request.key.workspaceId, deps.policy.presets)
    const call = guardCall(request, prepareCall(request, preset.body, this.#settings, preset.slug), deps)
    this.#facts.prepared = call
    return { call, model: call.models[0]!, inputTokens: estimateInputTokens(call.decoded.call) }
  }

  cacheable({ call: prepared }: Prepared): CacheableCall | null {
    if (prepared.decoded.serverTools.length > 0) return null
    return { endpoint: this.request.dialect.name, stream: prepared.decoded.stream, body: this.body }
  }

  async execute({ call: prepared, inputTokens }: Prepared, turn: CacheTurn): Promise<void> {
    const { request, deps, responder } = this
    const facts = this.#facts
    facts.answerHeaders = turn.headers
    if (turn.capture) facts.capturedBatches = []
    const route = textRoute(request, prepared, this.#settings)
    if (prepared.decoded.serverTools.length > 0) return runServerToolLoop(request, facts, route, responder, deps)
    const { plan, budgets } = planCall(request.key, route, deps)
    const endpoints = plan.candidates.map((candidate) => candidate.endpoint)
    const call = prepared.decoded.call
    const spend = {
      attempt: 1,
      worstCaseNano: estimateWorstCaseNano(call, endpoints, inputTokens),
      budgets,
      output: outputAllowance(call, endpoints, inputTokens),
    }
    await meteredCall(request, spend, deps, async (meter) => {
      const called = await callUpstream(request, facts, plan, deps)
      await respond(request, responder, called, facts, meter, deps, metadataOf(request, plan, facts, called))
    })
  }

  /**
   * Answers from the cache once the plan's guardrails allow the call and the endpoint that produced the
   * answer (else it is a miss): nothing is reserved, the usage and cost are zero.
   */
  async replay({ call: prepared }: Prepared, cached: CachedAnswer, turn: CacheTurn): Promise<boolean> {
    const { request, deps, responder } = this
    const answer = readCachedDialectAnswer(cached.payload)
    const { plan } = planCall(request.key, textRoute(request, prepared, this.#settings), deps)
    const candidate = plan.candidates.find((entry) => entry.endpoint.id === answer?.endpointId)
    if (answer === null || candidate === undefined) return false
    const facts = this.#facts
    const { endpoint } = candidate
    facts.endpoint = endpoint
    facts.cacheSourceId = cached.sourceGenerationId
    facts.answerHeaders = turn.headers
    facts.latencyMs = 0
    const meter = new Meter(0n)
    if (answer.kind === 'result')
      respondJson(request, responder, unbilledResult(answer.result), endpoint, facts, meter, deps.clock, noMetadata)
    else
      await respondStream(
        request,
        responder,
        unbilledEvents(answer.batches),
        endpoint,
        facts,
        meter,
        deps.clock,
        noMetadata,
      )
    facts.unbilledExcessNano = 0n
    return true
  }

  capturedAnswer(): unknown {
    return this.#facts.captured
  }

  deliver(): void {
    this.responder.deliver()
  }

  answerError(error: GatewayError): void {
    this.#facts.error = error
    if (this.responder.isSent) return
    const encoded = this.request.dialect.encodeError(error)
    this.responder.sendJson(
      encoded.status,
      encoded.body,
      withFields(error.headers ?? {}, { 'x-generation-id': this.request.generationId }),
    )
  }

  record(_failure: GatewayError | null, endedAtMs: number): CallRecord {
    const { request } = this
    const facts = this.#facts
    const record = buildGenerationRecord(request, facts, endedAtMs)
    return {
      record,
      content: () => buildGenerationContent(facts),
      trace: () => buildGenerationTrace(request, facts, record, endedAtMs),
      usedTokens: (facts.usage?.input_tokens ?? 0) + (facts.usage?.output_tokens ?? 0),
    }
  }
}

/** Sends the answer in the client's format: one JSON body for a whole result, SSE for a stream. */
async function respond(
  request: InferenceRequest,
  responder: Responder,
  called: CalledEndpoint,
  facts: CallFacts,
  meter: Meter,
  deps: InferenceDeps,
  metadata: () => Record<string, unknown> | undefined,
): Promise<void> {
  const { endpoint } = called.candidate
  if (called.outcome.kind === 'result')
    respondJson(request, responder, called.outcome.result, endpoint, facts, meter, deps.clock, metadata)
  else await respondStream(request, responder, called.outcome.events, endpoint, facts, meter, deps.clock, metadata)
}

function noMetadata(): undefined {
  return undefined
}

/**
 * The routing metadata, read when the answer is encoded (after the generation time is known). Made
 * here rather than as a named arrow in execute, which tsx would name at run time per request.
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
  const { call, findings } = filterCallContent(prepared.decoded.call, deps.policy.guardrailRules(request.key))
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
