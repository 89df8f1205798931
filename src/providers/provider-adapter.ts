// The contract every upstream adapter fulfils. Adapters are pure translators: the transport does the
// I/O, frames the body as the adapter declares (framing.ts) and hands the adapter whole frames. After
// the body is serialized, the adapter's authorizer adds what proves the gateway's identity: a static
// header, a signature over the final bytes (SigV4) or an OAuth access token.

import type { ErrorKind } from '../domain/errors.ts'
import type { CanonicalCall } from '../domain/inference/call.ts'
import type { ProviderApi } from '../domain/inference/provider-api.ts'
import type { CanonicalResult } from '../domain/inference/result.ts'
import type { PassThroughFormat, StreamEvent } from '../domain/inference/stream-event.ts'

export type { ProviderApi } from '../domain/inference/provider-api.ts'

/** How a streamed body is cut into frames before the adapter reads them. */
export type Framing = 'sse' | 'aws-event-stream' | 'ndjson' | 'json-array'

/**
 * One frame of a streamed body. SSE: the event name and data. AWS event-stream: `:event-type` (or
 * `:exception-type` with `exception` set) and the payload as text. NDJSON and JSON array: one value's text.
 */
export interface UpstreamFrame {
  readonly event?: string
  readonly data: string
  readonly exception?: true
}

/** What a provider's configuration gives its adapter: the key and the API-specific options. */
export interface ProviderSettings {
  readonly slug: string
  readonly apiKey: string | null
  readonly baseUrl: string
  readonly options?: Readonly<Record<string, string>>
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

/** The request as it will be sent: what a signature covers. */
export interface OutgoingRequest {
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * Adds the credentials to a request. `headers` alone (a static key) is merged with no await; otherwise
 * `authorize` returns the headers to add, computed from the final bytes or a cached access token.
 */
export interface Authorizer {
  readonly headers?: Readonly<Record<string, string>>
  authorize?(request: OutgoingRequest): Promise<Readonly<Record<string, string>>>
}

/** The I/O an authorizer may need, given by the upstream layer (tests give fakes and a manual clock). */
export interface AuthorizerDeps {
  /** Milliseconds since the epoch. */
  readonly now: () => number
  /** POSTs a form or JSON body and returns the status and text of the answer. */
  readonly post: (
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string,
  ) => Promise<{ readonly status: number; readonly body: string }>
  readonly readFile: (path: string) => Promise<string>
}

/** Lower-case header names, as node:http and undici report them. */
export type ResponseHeaders = Readonly<Record<string, string | readonly string[] | undefined>>

export interface UpstreamFailure {
  readonly kind: ErrorKind
  readonly message: string
  /** From `retry-after`, `retry-after-ms` or the body, when the upstream said. */
  readonly retryAfterSeconds?: number
}

/** One per upstream request; feed it every frame in order, then call end() when the body ends. */
export interface StreamParser {
  push(frame: UpstreamFrame): StreamEvent[]
  end(): StreamEvent[]
}

export interface ProviderAdapter {
  readonly api: ProviderApi
  readonly framing: Framing
  buildRequest(call: CanonicalCall, settings: ProviderSettings): UpstreamRequest
  /** One per provider entry, kept for its life (token caches live in it). */
  createAuthorizer(settings: ProviderSettings, deps: AuthorizerDeps): Authorizer
  /** Translates a successful non-streaming JSON body; throws GatewayError('upstream_error') if malformed. */
  parseResponse(body: unknown): CanonicalResult
  /**
   * With `passThrough` (only for an adapter with `passThroughFormat`), the parser also gives each frame
   * as a `native-frame` and may leave unread the frames whose meaning the stream's tally does not need.
   */
  createStreamParser(passThrough?: boolean): StreamParser
  /** The client format this adapter's streams are written in, when they are one: such a stream can pass through. */
  readonly passThroughFormat?: PassThroughFormat
  /** Classifies a non-2xx answer from its status, raw body text and headers. */
  classifyError(status: number, body: string, headers: ResponseHeaders): UpstreamFailure
}
