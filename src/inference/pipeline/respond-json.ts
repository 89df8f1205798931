// A non-streaming answer: price the result, encode it in the client's format, send it.
import type { Responder } from './responder.ts'
import type { Clock } from '../../domain/clock.ts'
import type { CanonicalResult } from '../../domain/inference/result.ts'
import { nanoToUsd } from '../../domain/money.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import { answerHeaders, chargeUsage, type CallFacts } from './call-facts.ts'
import type { InferenceRequest } from './inference-request.ts'
import type { Meter } from '../call/metered-call.ts'

export function respondJson(
  request: InferenceRequest,
  responder: Responder,
  result: CanonicalResult,
  endpoint: EndpointEntry,
  facts: CallFacts,
  meter: Meter,
  clock: Clock,
  metadata: () => Record<string, unknown> | undefined,
): void {
  facts.usage = result.usage
  chargeUsage(facts, meter, endpoint, result.usage)
  facts.upstreamId = result.id
  facts.finishReason = result.finish_reason
  facts.nativeFinishReason = result.native_finish_reason ?? null
  facts.completion = result.output.map((item) => (item.type === 'text' ? item.text : '')).join('')
  facts.reasoning = result.output.map((item) => (item.type === 'reasoning' ? item.text : '')).join('')
  const body = request.dialect.encodeResult(result, {
    generationId: request.generationId,
    model: facts.prepared!.models[0]!,
    provider: endpoint.provider.name,
    createdAt: Math.floor(request.startedAt / 1000),
    costUsd: nanoToUsd(facts.costNano),
    isByok: false,
    echo: facts.prepared!.decoded.echo,
    completedAt: Math.floor(clock.now().getTime() / 1000),
    ...optional('metadata', metadata()),
  })
  if (facts.capturedBatches !== null) facts.captured = { kind: 'result', endpointId: endpoint.id, result }
  responder.sendJson(200, body, answerHeaders(facts, request.generationId))
}

export function optional<K extends string, V>(name: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [name]: value }) as { [P in K]?: V }
}
