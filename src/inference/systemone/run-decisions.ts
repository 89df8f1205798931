// POST /systemone: every question is one real Chat Completions call through the full inference
// pipeline (invokeInference: routing, fallbacks, reservation, settlement, observability), run in
// parallel. Each question is its own generation record with api_type 'decisions': the first has the
// response's `id`, the others `<id>-<n>` (n = the question's position), all with request_id = id.
import type { IncomingHttpHeaders } from 'node:http'
import { GatewayError, isGatewayError, toErrorEnvelope } from '../../domain/errors.ts'
import type { ApiKeyRecord } from '../../domain/identity.ts'
import { nanoToUsd } from '../../domain/money.ts'
import type { Dialects } from '../../dialects/dialect.ts'
import type { InferenceDeps } from '../inference-deps.ts'
import { invokeInference } from '../invoke-inference.ts'
import type { InvokeResult } from '../call/invoke-port.ts'
import { decodeDecisionRequest, type DecisionQuestion } from './decision-request.ts'
import { questionBody } from './question-prompt.ts'
import { questionProbabilities, toAnswer, type ChatLogprob, type ProbabilityMethod } from './answer-probabilities.ts'
import type { CancelSignal } from '../../domain/cancellation.ts'

export interface DecisionCall {
  readonly id: string
  readonly key: ApiKeyRecord
  readonly headers: IncomingHttpHeaders
  readonly signal: CancelSignal
}

export interface DecisionAnswer {
  readonly status: number
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
}

export interface DecisionSettings {
  /** The vendor namespace bare model ids map onto (`typesafe/`). */
  readonly namespace: string
}

interface ChatBody {
  provider?: string
  choices?: { message?: { content?: string | null }; logprobs?: { content?: ChatLogprob[] | null } | null }[]
  usage?: { prompt_tokens?: number; completion_tokens?: number; cost?: number }
}

const forwardedHeaders = ['http-referer', 'user-agent', 'x-title', 'x-openrouter-title', 'x-session-id']

export async function runDecisions(
  call: DecisionCall,
  body: unknown,
  settings: DecisionSettings,
  dialects: Dialects,
  deps: InferenceDeps,
): Promise<DecisionAnswer> {
  try {
    const request = decodeDecisionRequest(body, settings.namespace)
    if (deps.routing.catalog.model(request.model) === undefined) {
      throw new GatewayError(
        'not_found',
        `Model "${request.model}" does not exist; bare ids map onto ${settings.namespace} (systemone.namespace). GET /api/v1/models lists the available models`,
      )
    }
    const headers: Record<string, string> = {}
    for (const name of forwardedHeaders) if (typeof call.headers[name] === 'string') headers[name] = call.headers[name]
    const results = await Promise.all(
      request.questions.map((question, index) =>
        invokeInference(
          {
            key: call.key,
            dialect: 'openai-chat',
            body: questionBody(request.model, request.state, question, request.passThrough),
            requestId: call.id,
            headers,
            signal: call.signal,
            generationId: index === 0 ? call.id : `${call.id}-${index}`,
            apiType: 'decisions',
          },
          dialects,
          deps,
        ),
      ),
    )
    const failed = results.find((result) => result.status !== 200)
    if (failed !== undefined)
      return { status: failed.status, body: failed.body, headers: pickRetryAfter(failed.headers, call.id) }
    return {
      status: 200,
      body: assemble(call.id, request.model, request.questions, results),
      headers: { 'x-generation-id': call.id },
    }
  } catch (error) {
    const failure = isGatewayError(error) ? error : new GatewayError('internal', undefined, { cause: error })
    if (!isGatewayError(error))
      deps.logger.error({ err: error, generationId: call.id }, 'systemone failed unexpectedly')
    return {
      status: failure.status,
      body: toErrorEnvelope(failure),
      headers: { ...failure.headers, 'x-generation-id': call.id },
    }
  }
}

function assemble(
  id: string,
  model: string,
  questions: readonly DecisionQuestion[],
  results: readonly InvokeResult[],
): Record<string, unknown> {
  const answers: Record<string, unknown> = {}
  const methods: Record<string, ProbabilityMethod> = {}
  const generations: Record<string, string> = {}
  let inputTokens = 0
  let outputTokens = 0
  let costNano = 0n
  questions.forEach((question, index) => {
    const result = results[index]!
    const chat = result.body as ChatBody
    const choice = chat.choices?.[0]
    const { method, probabilities } = questionProbabilities(
      question,
      choice?.message?.content ?? '',
      choice?.logprobs?.content ?? null,
    )
    answers[question.name] = toAnswer(question, probabilities)
    methods[question.name] = method
    generations[question.name] = result.generationId
    inputTokens += chat.usage?.prompt_tokens ?? 0
    outputTokens += chat.usage?.completion_tokens ?? 0
    costNano += BigInt(Math.round((chat.usage?.cost ?? 0) * 1e9))
  })
  const provider = (results[0]?.body as ChatBody | undefined)?.provider
  return {
    answers,
    id,
    model,
    ...(provider === undefined ? {} : { provider }),
    usage: { cost: nanoToUsd(costNano), input_tokens: inputTokens, output_tokens: outputTokens },
    metadata: { probability_method: methods, generation_ids: generations },
  }
}

function pickRetryAfter(headers: Readonly<Record<string, string>>, id: string): Record<string, string> {
  const retryAfter = headers['retry-after']
  return retryAfter === undefined ? { 'x-generation-id': id } : { 'retry-after': retryAfter, 'x-generation-id': id }
}
