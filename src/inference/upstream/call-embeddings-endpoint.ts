// One embeddings attempt at one endpoint: the provider's embeddings translator builds the request and
// reads the answer; non-2xx answers are classified by the provider's error table, as for chat calls.
import { GatewayError } from '../../domain/errors.ts'
import type { EmbeddingsCall, EmbeddingsResult } from '../../domain/inference/embeddings.ts'
import { embeddingsAdapters } from '../../providers/embeddings-registry.ts'
import { providerAdapters } from '../../providers/registry.ts'
import type { EndpointEntry } from '../catalog/catalog.ts'
import { AttemptError, attemptErrorFromTransport } from './attempt-error.ts'
import { readCapped, type UpstreamAnswer, type UpstreamTransport } from './upstream-transport.ts'

export interface CallEmbeddingsInput {
  readonly endpoint: EndpointEntry
  readonly call: Omit<EmbeddingsCall, 'model'>
  readonly signal: AbortSignal
  readonly transport: UpstreamTransport
}

export async function callEmbeddingsEndpoint(input: CallEmbeddingsInput): Promise<EmbeddingsResult> {
  const { endpoint, signal } = input
  const provider = endpoint.provider
  const adapter = embeddingsAdapters[provider.api]
  if (adapter === null) throw new GatewayError('invalid_request', `Provider ${provider.slug} (${provider.api}) has no embeddings API; route this model to another provider`)
  // input_type goes only to endpoints that take it (supported_parameters; see build-catalog.ts).
  const { input_type: inputType, ...call } = input.call
  const takesInputType = inputType !== undefined && endpoint.supportedParameters.includes('input_type')
  const request = adapter.buildRequest({ ...call, ...(takesInputType ? { input_type: inputType } : {}), model: endpoint.upstreamModelId }, provider.apiKey === null ? {} : { apiKey: provider.apiKey })
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
    const failure = providerAdapters[provider.api].classifyError(answer.status, await readCapped(answer.body), answer.headers)
    throw new AttemptError(failure.kind, `${provider.name}: ${failure.message}`, answer.status, failure.retryAfterSeconds)
  }
  let body: unknown
  try {
    body = await answer.body.json()
  } catch (error) {
    throw new AttemptError('upstream_error', `Provider ${provider.slug} returned a body that is not JSON`, answer.status, undefined, error)
  }
  return adapter.parseResponse(body, input.call.inputs.length)
}
