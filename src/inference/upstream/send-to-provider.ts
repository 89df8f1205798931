// Sends one adapter-built request to an endpoint's provider and returns the 2xx answer; the request is
// serialized and authorized first (authorize-request.ts); transport failures and non-2xx answers
// become AttemptErrors (classified by the provider's error table). A provider with a credential pool
// is sent through send-with-credential-pool.ts, which picks the key.
import type { ProviderAdapter, UpstreamRequest } from '../../providers/provider-adapter.ts'
import { authorizeRequest } from './authorize-request.ts'
import type { EndpointEntry, ProviderEntry } from '../../domain/catalog.ts'
import { AttemptError, attemptErrorFromTransport } from './attempt-error.ts'
import {
  readAllCapped,
  readCapped,
  ResponseTooLarge,
  type UpstreamAnswer,
  type UpstreamTransport,
} from './upstream-transport.ts'
import type { CancelSignal } from '../../domain/cancellation.ts'
import { sendWithCredentialPool } from './send-with-credential-pool.ts'
import { retrySameEndpoint } from './retry-same-endpoint.ts'
import { upstreamMessage } from './upstream-message.ts'

export async function sendToProvider(
  endpoint: EndpointEntry,
  adapter: ProviderAdapter,
  request: UpstreamRequest,
  signal: CancelSignal,
  transport: UpstreamTransport,
): Promise<UpstreamAnswer> {
  const { provider } = endpoint
  if (provider.retry === undefined && provider.credentials === undefined)
    return sendAs(provider, adapter, request, signal, transport)
  const send = (): Promise<UpstreamAnswer> =>
    provider.credentials === undefined
      ? sendAs(provider, adapter, request, signal, transport)
      : sendWithCredentialPool(provider, adapter, request, signal, transport, sendAs)
  return provider.retry === undefined ? send() : retrySameEndpoint(provider.retry, signal, send)
}

/** One send to `provider` (for a pooled provider: a copy of it holding the chosen key). */
async function sendAs(
  provider: ProviderEntry,
  adapter: ProviderAdapter,
  request: UpstreamRequest,
  signal: CancelSignal,
  transport: UpstreamTransport,
): Promise<UpstreamAnswer> {
  const prepared = await authorizeRequest(provider, adapter, request)
  let answer: UpstreamAnswer
  try {
    answer = await transport.send({
      baseUrl: provider.baseUrl,
      path: prepared.path,
      headers: prepared.headers,
      body: prepared.body,
      signal,
      headersTimeoutMs: provider.timeoutMs,
      bodyTimeoutMs: provider.timeoutMs,
    })
  } catch (error) {
    if (signal.aborted) throw error
    throw attemptErrorFromTransport(error, provider.slug)
  }
  if (answer.status < 200 || answer.status >= 300) {
    const body = await readCapped(answer.body)
    if (answer.status === 401 || answer.status === 403)
      transport.reportCredentialsRejected({
        provider,
        status: answer.status,
        upstreamMessage: upstreamMessage(body, provider.apiKey),
      })
    const failure = adapter.classifyError(answer.status, body, answer.headers)
    throw new AttemptError(
      failure.kind,
      `${provider.name}: ${failure.message}`,
      answer.status,
      failure.retryAfterSeconds,
    )
  }
  return answer
}

/**
 * Reads a 2xx answer's JSON body (capped) with `parse` (JSON.parse by default); a body that is too
 * large or not JSON (`parse` throws a SyntaxError) fails the attempt. Other errors of `parse` pass.
 */
export async function readJsonAnswer<T = unknown>(
  answer: UpstreamAnswer,
  providerSlug: string,
  parse: (text: string) => T = JSON.parse,
): Promise<T> {
  try {
    return parse((await readAllCapped(answer.body)).toString('utf8'))
  } catch (error) {
    if (!(error instanceof ResponseTooLarge || error instanceof SyntaxError)) throw error
    const reason = error instanceof ResponseTooLarge ? error.message : 'a body that is not JSON'
    throw new AttemptError(
      'upstream_error',
      `Provider ${providerSlug} returned ${reason}`,
      answer.status,
      undefined,
      error,
    )
  }
}
