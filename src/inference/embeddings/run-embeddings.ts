// The embeddings pipeline, top to bottom: decode -> size check -> content filters -> admit tokens
// (tokens per minute) -> route (kind 'embedding') under the key's guardrails -> reserve (prompt price x
// worst-case tokens) against the key limit, credits and the guardrail and workspace budgets -> call
// with fallbacks -> answer; then (finally) settle or release, record the generation (api_type
// 'embeddings') and broadcast it. The policy steps are chat's own (guard-plan.ts,
// report-content-matches.ts); every outcome leaves through the same `finally`.
import { GatewayError, isGatewayError } from '../../domain/errors.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { EmbeddingsResult } from '../../domain/inference/embeddings.ts'
import { costNano, nanoToUsd } from '../../domain/money.ts'
import {
  checkInputSize,
  createEmbeddingsDecoder,
  type DecodedEmbeddingsRequest,
} from '../../dialects/embeddings/decode-request.ts'
import { encodeEmbeddingsResponse } from '../../dialects/embeddings/encode-response.ts'
import { encodeEnvelopeError } from '../../dialects/encode-envelope-error.ts'
import type { InferenceDeps, SpendReservation, TokenCharge } from '../inference-deps.ts'
import { guardPlan } from '../pipeline/guard-plan.ts'
import { reportContentMatches } from '../pipeline/report-content-matches.ts'
import { filterEmbeddingInputs } from './filter-embedding-inputs.ts'
import { planRoute } from '../routing/plan-route.ts'
import type { ProviderPreferences } from '../routing/provider-preferences.ts'
import { AllAttemptsFailed, tryCandidates } from '../upstream/call-with-fallbacks.ts'
import { callEmbeddingsEndpoint } from '../upstream/call-embeddings-endpoint.ts'
import { estimateEmbeddingTokens, worstCaseEmbeddingTokens } from './embedding-tokens.ts'
import { newEmbeddingsFacts, recordEmbeddings, type EmbeddingsFacts } from './record-embeddings.ts'
import type { IncomingHttpHeaders } from 'node:http'
import type { CancelSignal } from '../../domain/cancellation.ts'
import { withFields } from '../../domain/with-fields.ts'

export interface EmbeddingsRequest {
  readonly generationId: string
  readonly requestId: string
  readonly key: ApiKeyRecord
  readonly startedAt: number
  readonly headers: IncomingHttpHeaders
  readonly signal: CancelSignal
}

export interface EmbeddingsSettings {
  /** Largest input accepted, in characters (or tokens for token arrays), summed over inputs. */
  readonly maxInputChars: number
}

export interface EmbeddingsAnswer {
  readonly status: number
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
}

export type EmbeddingsRunner = (request: EmbeddingsRequest, body: unknown) => Promise<EmbeddingsAnswer>

export type EmbeddingsDecoder = (body: unknown) => DecodedEmbeddingsRequest

/** A caller that builds a runner per call (a batch line, with its own accounting) passes one `decode` compiled once. */
export function createEmbeddingsRunner(
  settings: EmbeddingsSettings,
  deps: InferenceDeps,
  decode: EmbeddingsDecoder = createEmbeddingsDecoder(),
): EmbeddingsRunner {
  return async (request, body) => {
    const facts = newEmbeddingsFacts()
    let reservation: SpendReservation | null = null
    let tokenCharge: TokenCharge | null = null
    try {
      const received = decode(body)
      checkInputSize(received, settings.maxInputChars)
      const decoded = filterContent(request, received, deps)
      facts.decoded = decoded
      facts.sessionId = decoded.sessionId ?? sessionHeader(request.headers)
      tokenCharge = await deps.tokenLimits.admitCall(
        request.key,
        decoded.model,
        estimateEmbeddingTokens(decoded.call.inputs),
      )
      reservation = await reserve(request, decoded, facts, deps)
      const result = await callUpstream(request, decoded, facts, deps)
      const tokens = result.prompt_tokens ?? estimateEmbeddingTokens(decoded.call.inputs)
      facts.promptTokens = tokens
      facts.costNano = costNano(facts.endpoint!.pricing, { promptTokens: tokens, completionTokens: 0 })
      const encoded = encodeEmbeddingsResponse({
        generationId: request.generationId,
        model: decoded.model,
        vectors: result.vectors,
        promptTokens: tokens,
        costUsd: nanoToUsd(facts.costNano),
        encodingFormat: decoded.encodingFormat,
      })
      return { status: 200, body: encoded, headers: { 'x-generation-id': request.generationId } }
    } catch (error) {
      facts.error = toGatewayError(error, request, deps)
      const encoded = encodeEnvelopeError(facts.error)
      return {
        status: encoded.status,
        body: encoded.body,
        headers: withFields(facts.error.headers ?? {}, { 'x-generation-id': request.generationId }),
      }
    } finally {
      await recordEmbeddings(request, facts, reservation, deps)
      if (tokenCharge !== null) await deps.tokenLimits.settleTokens(tokenCharge, facts.promptTokens)
    }
  }
}

/** The key's content filters on the inputs (block -> 403, redact before any upstream or stored content). */
function filterContent(
  request: EmbeddingsRequest,
  decoded: DecodedEmbeddingsRequest,
  deps: InferenceDeps,
): DecodedEmbeddingsRequest {
  const { inputs, findings } = filterEmbeddingInputs(decoded.call.inputs, deps.guardrailRules(request.key))
  reportContentMatches(request, findings, deps)
  return findings.length === 0 ? decoded : withFields(decoded, { call: withFields(decoded.call, { inputs }) })
}

async function reserve(
  request: EmbeddingsRequest,
  decoded: DecodedEmbeddingsRequest,
  facts: EmbeddingsFacts,
  deps: InferenceDeps,
): Promise<SpendReservation> {
  const settings = deps.workspaceSettings(request.key)
  const route = planRoute(
    {
      models: [decoded.model],
      kind: 'embedding',
      provider: decoded.provider as ProviderPreferences | undefined,
      sessionKey: sessionKey(request, facts),
      usedParameters: usedParameters(decoded),
      defaultSort: settings.defaultProviderSort,
    },
    deps.routing,
  )
  const { plan, budgets } = guardPlan(request.key, route, deps, settings)
  facts.plan = plan
  const tokens = worstCaseEmbeddingTokens(decoded.call.inputs)
  const worstCaseNano = facts.plan.candidates.reduce((worst, candidate) => {
    const cost = costNano(candidate.endpoint.pricing, { promptTokens: tokens, completionTokens: 0 })
    return cost > worst ? cost : worst
  }, 0n)
  return deps.accounting.reserve({
    key: request.key,
    generationId: request.generationId,
    attempt: 1,
    worstCaseNano,
    isByok: false,
    budgets,
  })
}

async function callUpstream(
  request: EmbeddingsRequest,
  decoded: DecodedEmbeddingsRequest,
  facts: EmbeddingsFacts,
  deps: InferenceDeps,
): Promise<EmbeddingsResult> {
  try {
    const called = await tryCandidates(
      { candidates: facts.plan!.candidates, sessionKey: sessionKey(request, facts) },
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

function sessionHeader(headers: IncomingHttpHeaders): string | null {
  const value = headers['x-session-id']
  if (typeof value !== 'string' || value === '') return null
  if (value.length > 256)
    throw new GatewayError(
      'invalid_request',
      'Invalid request parameters: the x-session-id header must be at most 256 characters',
    )
  return value
}

function toGatewayError(error: unknown, request: EmbeddingsRequest, deps: InferenceDeps): GatewayError {
  if (request.signal.aborted) return new GatewayError('client_closed', 'The client closed the request')
  if (isGatewayError(error)) return error
  deps.logger.error({ err: error, generationId: request.generationId }, 'embeddings failed unexpectedly')
  return new GatewayError('internal', undefined, { cause: error })
}
