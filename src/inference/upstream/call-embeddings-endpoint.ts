// One embeddings attempt at one endpoint: the provider's embeddings translator builds the request and
// reads the answer; non-2xx answers are classified by the provider's error table, as for chat calls.
import { GatewayError } from '../../domain/errors.ts'
import type { EmbeddingsCall, EmbeddingsResult } from '../../domain/inference/embeddings.ts'
import { embeddingsAdapterFor } from '../../providers/registry.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { UpstreamTransport } from './upstream-transport.ts'
import { readJsonAnswer, sendToProvider } from './send-to-provider.ts'
import { endpointAdapter } from './endpoint-adapter.ts'
import type { CancelSignal } from '../../domain/cancellation.ts'
import { withFields } from '../../domain/with-fields.ts'

export interface CallEmbeddingsInput {
  readonly endpoint: EndpointEntry
  readonly call: Omit<EmbeddingsCall, 'model'>
  readonly signal: CancelSignal
  readonly transport: UpstreamTransport
}

export async function callEmbeddingsEndpoint(input: CallEmbeddingsInput): Promise<EmbeddingsResult> {
  const { endpoint } = input
  const provider = endpoint.provider
  const adapter = embeddingsAdapterFor(provider.api)
  if (adapter === null)
    throw new GatewayError(
      'invalid_request',
      `Provider ${provider.slug} (${provider.api}) has no embeddings API; route this model to another provider`,
    )
  // input_type goes only to endpoints that take it (supported_parameters; see build-catalog.ts).
  const { input_type: inputType, ...call } = input.call
  const takesInputType = inputType !== undefined && endpoint.supportedParameters.includes('input_type')
  const request = adapter.buildRequest(
    withFields(
      call,
      takesInputType ? { input_type: inputType, model: endpoint.upstreamModelId } : { model: endpoint.upstreamModelId },
    ),
    provider,
  )
  const answer = await sendToProvider(endpoint, endpointAdapter(endpoint), request, input.signal, input.transport)
  const result = await readJsonAnswer(answer, provider.slug, (text) =>
    adapter.parseResponse(text, input.call.inputs.length),
  )
  // A provider that reports no count leaves the credential's estimate as it was charged.
  if (result.prompt_tokens !== null) await answer.settleCredentialTokens?.(result.prompt_tokens)
  return result
}
