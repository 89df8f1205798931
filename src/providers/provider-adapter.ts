// The contract every upstream adapter fulfils. Adapters are pure translators: the transport does the
// I/O, frames SSE (sse-framing.ts) and hands the adapter whole events.

import type { ErrorKind } from '../domain/errors.ts'
import type { CanonicalCall } from '../domain/inference/call.ts'
import type { ProviderApi } from '../domain/inference/provider-api.ts'
import type { CanonicalResult } from '../domain/inference/result.ts'
import type { StreamEvent } from '../domain/inference/stream-event.ts'
import type { SseEvent } from './sse-framing.ts'

export type { ProviderApi } from '../domain/inference/provider-api.ts'

export interface BuildRequestOptions {
  /** The provider's API key; no auth header is sent without one (local OpenAI-compatible servers). */
  readonly apiKey?: string
}

export interface UpstreamRequest {
  readonly method: 'POST'
  /** Relative to the provider's `base_url`, query included (`/chat/completions`, `/v1/messages`, ...). */
  readonly path: string
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string>>
  /** The JSON body, to be serialized once by the transport. */
  readonly body: Readonly<Record<string, unknown>>
}

/** Lower-case header names, as node:http and undici report them. */
export type ResponseHeaders = Readonly<Record<string, string | readonly string[] | undefined>>

export interface UpstreamFailure {
  readonly kind: ErrorKind
  readonly message: string
  /** From `retry-after`, `retry-after-ms` or the body, when the upstream said. */
  readonly retryAfterSeconds?: number
}

/** One per upstream request; feed it every SSE event in order, then call end() when the body ends. */
export interface StreamParser {
  push(event: SseEvent): StreamEvent[]
  end(): StreamEvent[]
}

export interface ProviderAdapter {
  readonly api: ProviderApi
  buildRequest(call: CanonicalCall, options: BuildRequestOptions): UpstreamRequest
  /** Translates a successful non-streaming JSON body; throws GatewayError('upstream_error') if malformed. */
  parseResponse(body: unknown): CanonicalResult
  createStreamParser(): StreamParser
  /** Classifies a non-2xx answer from its status, raw body text and headers. */
  classifyError(status: number, body: string, headers: ResponseHeaders): UpstreamFailure
}
