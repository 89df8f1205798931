// One attempt at one endpoint: build the upstream request with the provider's adapter, send it, and
// return either the canonical result or the canonical stream events. Non-2xx answers become
// AttemptErrors classified by the adapter's error table.
import type { CanonicalCall } from '../../domain/inference/call.ts'
import type { CanonicalResult } from '../../domain/inference/result.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import { providerAdapters } from '../../providers/registry.ts'
import { createSseFramer } from '../../providers/sse-framing.ts'
import type { ProviderAdapter } from '../../providers/provider-adapter.ts'
import type { EndpointEntry } from '../catalog/catalog.ts'
import { AttemptError, attemptErrorFromTransport } from './attempt-error.ts'
import { readAllCapped, readCapped, ResponseTooLarge, type UpstreamAnswer, type UpstreamTransport } from './upstream-transport.ts'

export type EndpointOutcome =
  | { readonly kind: 'result'; readonly result: CanonicalResult }
  | { readonly kind: 'stream'; readonly events: AsyncIterable<StreamEvent> }

export interface CallEndpointInput {
  readonly endpoint: EndpointEntry
  readonly call: Omit<CanonicalCall, 'model'>
  readonly signal: AbortSignal
  readonly transport: UpstreamTransport
}

export async function callEndpoint(input: CallEndpointInput): Promise<EndpointOutcome> {
  const { endpoint, signal } = input
  const provider = endpoint.provider
  const adapter = providerAdapters[provider.api]
  const request = adapter.buildRequest({ ...input.call, model: endpoint.upstreamModelId }, provider.apiKey === null ? {} : { apiKey: provider.apiKey })
  let answer: UpstreamAnswer
  try {
    answer = await input.transport.send({
      baseUrl: provider.baseUrl,
      path: request.path,
      headers: { ...request.headers, ...provider.headers },
      body: JSON.stringify(request.body),
      signal,
      headersTimeoutMs: provider.timeoutMs,
      bodyTimeoutMs: provider.timeoutMs,
    })
  } catch (error) {
    if (signal.aborted) throw error
    throw attemptErrorFromTransport(error, provider.slug)
  }
  if (answer.status < 200 || answer.status >= 300) {
    const text = await readCapped(answer.body)
    const failure = adapter.classifyError(answer.status, text, answer.headers)
    throw new AttemptError(failure.kind, `${provider.name}: ${failure.message}`, answer.status, failure.retryAfterSeconds)
  }
  if (!input.call.stream) return { kind: 'result', result: await readResult(adapter, answer, provider.slug) }
  return { kind: 'stream', events: streamEvents(adapter, answer) }
}

async function readResult(adapter: ProviderAdapter, answer: UpstreamAnswer, providerSlug: string): Promise<CanonicalResult> {
  let body: unknown
  try {
    body = JSON.parse((await readAllCapped(answer.body)).toString('utf8'))
  } catch (error) {
    const reason = error instanceof ResponseTooLarge ? error.message : 'a body that is not JSON'
    throw new AttemptError('upstream_error', `Provider ${providerSlug} returned ${reason}`, answer.status, undefined, error)
  }
  return adapter.parseResponse(body)
}

async function* streamEvents(adapter: ProviderAdapter, answer: UpstreamAnswer): AsyncIterable<StreamEvent> {
  const framer = createSseFramer()
  const parser = adapter.createStreamParser()
  try {
    for await (const chunk of answer.body) {
      for (const event of framer.push(chunk as Buffer)) yield* parser.push(event)
    }
    for (const event of framer.end()) yield* parser.push(event)
    yield* parser.end()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    yield { type: 'stream-error', kind: 'upstream_error', message: `The provider's stream broke off: ${message}` }
  }
}
