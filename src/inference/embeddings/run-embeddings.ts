// The embeddings adapter of the call core (POST /embeddings and batch embedding lines): prepare =
// decode -> size check -> content filters; execute = plan (kind 'embedding', under the key's guardrails
// and budgets) -> one metered call (reserve prompt price x worst-case tokens -> call with fallbacks ->
// charge the reported tokens -> answer with the cost billed); replay = a response-cache hit answered
// with the cached vectors, unbilled, after the plan's guardrails; record = the generation record
// (api_type 'embeddings') and trace. The core (src/inference/call/run-call.ts) owns every exit.
import type { GatewayError } from '../../domain/errors.ts'
import { sessionHeader } from '../call/session-header.ts'
import { costNano, nanoToUsd } from '../../domain/money.ts'
import type { EmbeddingVector, EmbeddingsResult } from '../../domain/inference/embeddings.ts'
import type { CacheableCall, CacheTurn } from '../call/cached-execute.ts'
import type { CachedAnswer } from '../../response-cache/response-cache.ts'
import {
  checkInputSize,
  createEmbeddingsDecoder,
  type DecodedEmbeddingsRequest,
} from '../../dialects/embeddings/decode-request.ts'
import { encodeEmbeddingsResponse } from '../../dialects/embeddings/encode-response.ts'
import { encodeEnvelopeError } from '../../dialects/encode-envelope-error.ts'
import type { InferenceDeps } from '../inference-deps.ts'
import type { CallRequest } from '../call/call-request.ts'
import { planCall } from '../call/plan-call.ts'
import { meteredCall, type Meter } from '../call/metered-call.ts'
import { runCall, type CallSteps } from '../call/run-call.ts'
import type { CallRecord } from '../call/record-call.ts'
import { reportContentMatches } from '../call/report-content-matches.ts'
import { filterEmbeddingInputs } from './filter-embedding-inputs.ts'
import type { RoutePlan, RouteRequest } from '../routing/plan-route.ts'
import type { ProviderPreferences } from '../routing/provider-preferences.ts'
import { AllAttemptsFailed, tryCandidates } from '../upstream/call-with-fallbacks.ts'
import { callEmbeddingsEndpoint } from '../upstream/call-embeddings-endpoint.ts'
import { countEmbeddingTokens, estimateEmbeddingTokens, worstCaseEmbeddingTokens } from './embedding-tokens.ts'
import { loadTokenizer } from '../tokens/load-tokenizer.ts'
import { buildEmbeddingsRecord, newEmbeddingsFacts, type EmbeddingsFacts } from './embeddings-record.ts'
import { withFields } from '../../domain/with-fields.ts'

export type EmbeddingsRequest = CallRequest

export interface EmbeddingsSettings {
  /** Largest input accepted, in characters (or tokens for token arrays), summed over inputs. */
  readonly maxInputChars: number
}

export interface EmbeddingsAnswer {
  readonly status: number
  /** An object (an error), or the answer's JSON text (200: the vectors are spliced in as the upstream sent them). */
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
}

const jsonText = { 'content-type': 'application/json; charset=utf-8' }

export type EmbeddingsRunner = (request: EmbeddingsRequest, body: unknown) => Promise<EmbeddingsAnswer>

export type EmbeddingsDecoder = (body: unknown) => DecodedEmbeddingsRequest

/** A caller that builds a runner per call (a batch line, with its own accounting) passes one `decode` compiled once. */
export function createEmbeddingsRunner(
  settings: EmbeddingsSettings,
  deps: InferenceDeps,
  decode: EmbeddingsDecoder = createEmbeddingsDecoder(),
): EmbeddingsRunner {
  return async (request, body) => {
    const call = new EmbeddingsCall(request, body, settings, decode, deps)
    await runCall(request, call, deps)
    return call.answer!
  }
}

interface Prepared {
  readonly decoded: DecodedEmbeddingsRequest
  readonly model: string
  readonly inputTokens: number
}

class EmbeddingsCall implements CallSteps<Prepared> {
  readonly facts: EmbeddingsFacts = newEmbeddingsFacts()
  answer: EmbeddingsAnswer | null = null

  constructor(
    readonly request: EmbeddingsRequest,
    readonly body: unknown,
    readonly settings: EmbeddingsSettings,
    readonly decode: EmbeddingsDecoder,
    readonly deps: InferenceDeps,
  ) {}

  prepare(): Prepared {
    const received = this.decode(this.body)
    checkInputSize(received, this.settings.maxInputChars)
    const decoded = filterContent(this.request, received, this.deps)
    this.facts.decoded = decoded
    this.facts.sessionId = decoded.sessionId ?? sessionHeader(this.request.headers)
    return { decoded, model: decoded.model, inputTokens: estimateEmbeddingTokens(decoded.call.inputs) }
  }

  cacheable(): CacheableCall {
    return { endpoint: 'embeddings', stream: false, body: this.body }
  }

  async execute({ decoded }: Prepared, turn: CacheTurn): Promise<void> {
    const { request, deps, facts } = this
    facts.answerHeaders = turn.headers
    facts.capture = turn.capture
    const { plan, budgets } = planCall(request.key, embeddingsRoute(request, decoded, facts, deps), deps)
    const tokens = worstCaseEmbeddingTokens(decoded.call.inputs)
    const worstCaseNano = plan.candidates.reduce((worst, candidate) => {
      const cost = costNano(candidate.endpoint.pricing, { promptTokens: tokens, completionTokens: 0 })
      return cost > worst ? cost : worst
    }, 0n)
    await meteredCall(request, { attempt: 1, worstCaseNano, budgets }, deps, (meter) =>
      this.attempt(decoded, plan, meter),
    )
  }

  /** Calls with fallbacks, charges the reported (or estimated) tokens, answers with the cost billed. */
  async attempt(decoded: DecodedEmbeddingsRequest, plan: RoutePlan, meter: Meter): Promise<void> {
    const { request, facts } = this
    const result = await callUpstream(request, decoded, plan, facts, this.deps)
    const endpoint = facts.endpoint!
    const tokens =
      result.prompt_tokens ?? countEmbeddingTokens(decoded.call.inputs, await loadTokenizer(endpoint.upstreamModelId))
    facts.promptTokens = tokens
    const charge = meter.charge({
      costNano: costNano(endpoint.pricing, { promptTokens: tokens, completionTokens: 0 }),
      model: decoded.model,
      provider: endpoint.provider.slug,
      promptTokens: tokens,
      completionTokens: 0,
      endUser: decoded.call.user ?? null,
    })
    facts.costNano = charge.billedNano
    facts.unbilledExcessNano = charge.unbilledExcessNano
    if (facts.capture) facts.captured = { kind: 'embeddings', endpointId: endpoint.id, vectors: result.vectors }
    this.respond(decoded, result.vectors, tokens)
  }

  /** Answers from the cache once the plan's guardrails allow the call and the endpoint that made the vectors. */
  async replay({ decoded }: Prepared, cached: CachedAnswer, turn: CacheTurn): Promise<boolean> {
    const { request, deps, facts } = this
    const vectors = cachedVectors(cached.payload)
    const { plan } = planCall(request.key, embeddingsRoute(request, decoded, facts, deps), deps)
    const candidate = plan.candidates.find((entry) => entry.endpoint.id === vectors?.endpointId)
    if (vectors === null || candidate === undefined) return false
    facts.endpoint = candidate.endpoint
    facts.cacheSourceId = cached.sourceGenerationId
    facts.answerHeaders = turn.headers
    facts.latencyMs = 0
    this.respond(decoded, vectors.vectors, 0)
    return true
  }

  capturedAnswer(): unknown {
    return this.facts.captured
  }

  respond(decoded: DecodedEmbeddingsRequest, vectors: readonly EmbeddingVector[], promptTokens: number): void {
    const { request, facts } = this
    const encoded = encodeEmbeddingsResponse({
      generationId: request.generationId,
      model: decoded.model,
      vectors,
      promptTokens,
      costUsd: nanoToUsd(facts.costNano),
      encodingFormat: decoded.encodingFormat,
    })
    const headers = withFields(jsonText, { 'x-generation-id': request.generationId })
    this.answer = { status: 200, body: encoded, headers: { ...headers, ...facts.answerHeaders } }
  }

  /** The route answers once the call core returns, after the records are durable: nothing is held. */
  deliver(): void {}

  answerError(error: GatewayError): void {
    this.facts.error = error
    const encoded = encodeEnvelopeError(error)
    this.answer = {
      status: encoded.status,
      body: encoded.body,
      headers: withFields(error.headers ?? {}, { 'x-generation-id': this.request.generationId }),
    }
  }

  record(_failure: GatewayError | null, endedAtMs: number): CallRecord {
    return buildEmbeddingsRecord(this.request, this.facts, endedAtMs)
  }
}

/** The key's content filters on the inputs (block -> 403, redact before any upstream or stored content). */
function filterContent(
  request: EmbeddingsRequest,
  decoded: DecodedEmbeddingsRequest,
  deps: InferenceDeps,
): DecodedEmbeddingsRequest {
  const { inputs, findings } = filterEmbeddingInputs(decoded.call.inputs, deps.policy.guardrailRules(request.key))
  reportContentMatches(request, findings, deps)
  return findings.length === 0 ? decoded : withFields(decoded, { call: withFields(decoded.call, { inputs }) })
}

function embeddingsRoute(
  request: EmbeddingsRequest,
  decoded: DecodedEmbeddingsRequest,
  facts: EmbeddingsFacts,
  deps: InferenceDeps,
): RouteRequest {
  return {
    models: [decoded.model],
    kind: 'embedding',
    provider: decoded.provider as ProviderPreferences | undefined,
    sessionKey: sessionKey(request, facts),
    usedParameters: usedParameters(decoded),
    defaultSort: deps.policy.workspaceSettings(request.key).defaultProviderSort,
  }
}

async function callUpstream(
  request: EmbeddingsRequest,
  decoded: DecodedEmbeddingsRequest,
  plan: RoutePlan,
  facts: EmbeddingsFacts,
  deps: InferenceDeps,
): Promise<EmbeddingsResult> {
  try {
    const called = await tryCandidates(
      { candidates: plan.candidates, sessionKey: sessionKey(request, facts) },
      (endpoint) =>
        callEmbeddingsEndpoint({ endpoint, call: decoded.call, signal: request.signal, transport: deps.transport }),
      deps,
    )
    facts.attempts = called.attempts
    facts.endpoint = called.candidate.endpoint
    facts.latencyMs = called.latencyMs
    return called.outcome
  } catch (error) {
    if (error instanceof AllAttemptsFailed) facts.attempts = error.attempts
    throw error
  }
}

/** The cached vectors, when the stored JSON is an embeddings answer (an entry of another shape is a miss). */
function cachedVectors(payload: unknown): { endpointId: string; vectors: readonly EmbeddingVector[] } | null {
  if (typeof payload !== 'object' || payload === null || !('kind' in payload) || payload.kind !== 'embeddings')
    return null
  if (!('endpointId' in payload) || typeof payload.endpointId !== 'string') return null
  if (!('vectors' in payload) || !Array.isArray(payload.vectors)) return null
  return { endpointId: payload.endpointId, vectors: payload.vectors }
}

function usedParameters(decoded: DecodedEmbeddingsRequest): string[] {
  const used: string[] = []
  if (decoded.call.dimensions !== undefined) used.push('dimensions')
  if (decoded.call.input_type !== undefined) used.push('input_type')
  if (decoded.encodingFormat !== 'float') used.push('encoding_format')
  return used
}

function sessionKey(request: EmbeddingsRequest, facts: EmbeddingsFacts): string | null {
  return facts.sessionId === null ? null : `${request.key.workspaceId}:${facts.sessionId}`
}
