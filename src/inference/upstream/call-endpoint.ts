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
import type { UpstreamAnswer, UpstreamTransport } from './upstream-transport.ts'
import { readJsonAnswer, sendToProvider } from './send-to-provider.ts'

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
  const answer = await sendToProvider(endpoint, request, signal, input.transport)
  if (!input.call.stream) return { kind: 'result', result: await readResult(adapter, answer, provider.slug) }
  return { kind: 'stream', events: streamEvents(adapter, answer) }
}

async function readResult(adapter: ProviderAdapter, answer: UpstreamAnswer, providerSlug: string): Promise<CanonicalResult> {
  return adapter.parseResponse(await readJsonAnswer(answer, providerSlug))
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
