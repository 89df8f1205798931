// One probe request to an endpoint through its provider adapter and the upstream transport: the raw
// outcome (no answer, an HTTP error with the upstream's own message, or a 2xx answer to read).
import type { CanonicalCall } from '../../domain/inference/call.ts'
import { endpointAdapter } from '../upstream/endpoint-adapter.ts'
import { authorizeRequest } from '../upstream/authorize-request.ts'
import { AttemptError } from '../upstream/attempt-error.ts'
import { parseErrorBody } from '../../providers/upstream-failure.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import { readCapped, type UpstreamAnswer, type UpstreamTransport } from '../upstream/upstream-transport.ts'

export type Exchange =
  | { readonly kind: 'unreachable'; readonly message: string }
  | { readonly kind: 'http-error'; readonly status: number; readonly message: string; readonly raw: string }
  | { readonly kind: 'answered'; readonly answer: UpstreamAnswer }

/** Thrown when the overall validation deadline passed during an exchange. */
export class ProbeDeadline extends Error {}

const probeCall: Omit<CanonicalCall, 'stream'> = {
  model: '',
  messages: [{ role: 'user', content: 'This is a connectivity check. Reply with the single word: OK' }],
  max_output_tokens: 16,
}

export async function probeExchange(
  endpoint: EndpointEntry,
  stream: boolean,
  signal: AbortSignal,
  transport: UpstreamTransport,
): Promise<Exchange> {
  const provider = endpoint.provider
  const adapter = endpointAdapter(endpoint)
  const built = adapter.buildRequest({ ...probeCall, model: endpoint.upstreamModelId, stream }, provider)
  let request
  try {
    request = await authorizeRequest(provider, adapter, built)
  } catch (error) {
    if (error instanceof AttemptError) return { kind: 'unreachable', message: error.message }
    throw error
  }
  let answer: UpstreamAnswer
  try {
    answer = await transport.send({
      baseUrl: provider.baseUrl,
      path: request.path,
      headers: request.headers,
      body: request.body,
      signal,
      headersTimeoutMs: provider.timeoutMs,
      bodyTimeoutMs: provider.timeoutMs,
    })
  } catch (error) {
    if (signal.aborted) throw new ProbeDeadline()
    const code = (error as { code?: string }).code
    return { kind: 'unreachable', message: `${provider.baseUrl} is unreachable (${code ?? (error as Error).message})` }
  }
  if (answer.status >= 200 && answer.status < 300) return { kind: 'answered', answer }
  const raw = await readCapped(answer.body, 16 * 1024).catch(() => '')
  if (signal.aborted) throw new ProbeDeadline()
  return { kind: 'http-error', status: answer.status, message: upstreamMessage(raw) ?? `HTTP ${answer.status}`, raw }
}

/** The message an error body carries (`{error: {message}}`, `{message}`, `{error: "..."}`), or the text. */
function upstreamMessage(raw: string): string | null {
  const body = parseErrorBody(raw) as { error?: { message?: unknown } | string; message?: unknown } | undefined
  const candidates = [typeof body?.error === 'object' ? body.error?.message : body?.error, body?.message]
  const found = candidates.find((value): value is string => typeof value === 'string' && value !== '')
  if (found !== undefined) return found.slice(0, 500)
  return raw.trim() === '' ? null : raw.trim().slice(0, 500)
}
