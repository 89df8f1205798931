// One attempt at one endpoint: build the upstream request with the provider's adapter, send it, and
// return either the canonical result or the canonical stream events. Non-2xx answers become
// AttemptErrors classified by the adapter's error table. The usage an answer reports settles its pool
// credential's token charge (here for a JSON answer, at the stream's end for a streamed one).
import type { CanonicalCall } from '../../domain/inference/call.ts'
import type { CanonicalResult } from '../../domain/inference/result.ts'
import { endpointAdapter } from './endpoint-adapter.ts'
import type { ProviderAdapter } from '../../providers/provider-adapter.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { UpstreamAnswer, UpstreamTransport } from './upstream-transport.ts'
import { readJsonAnswer, sendToProvider } from './send-to-provider.ts'
import { UpstreamEventStream } from './upstream-event-stream.ts'
import type { CancelSignal } from '../../domain/cancellation.ts'
import { withFields } from '../../domain/with-fields.ts'

export type EndpointOutcome =
  | { readonly kind: 'result'; readonly result: CanonicalResult }
  | { readonly kind: 'stream'; readonly events: UpstreamEventStream }

export interface CallEndpointInput {
  readonly endpoint: EndpointEntry
  readonly call: Omit<CanonicalCall, 'model'>
  readonly signal: CancelSignal
  readonly transport: UpstreamTransport
}

export async function callEndpoint(input: CallEndpointInput): Promise<EndpointOutcome> {
  const { endpoint, signal } = input
  const provider = endpoint.provider
  const adapter = endpointAdapter(endpoint)
  const request = adapter.buildRequest(withFields(input.call, { model: endpoint.upstreamModelId }), provider)
  const answer = await sendToProvider(endpoint, adapter, request, signal, input.transport)
  if (!input.call.stream) return { kind: 'result', result: await readResult(adapter, answer, provider.slug) }
  return { kind: 'stream', events: new UpstreamEventStream(adapter, answer, request.body) }
}

async function readResult(
  adapter: ProviderAdapter,
  answer: UpstreamAnswer,
  providerSlug: string,
): Promise<CanonicalResult> {
  const result = adapter.parseResponse(await readJsonAnswer(answer, providerSlug))
  await answer.settleCredentialTokens?.(result.usage.input_tokens + result.usage.output_tokens)
  return result
}
