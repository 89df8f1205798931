// The one module that talks to upstream providers: an undici Pool per origin with keep-alive, a
// per-attempt timeout for the response headers, an idle timeout for the body, abort on the caller's
// signal and a cap on error bodies. It knows nothing about provider formats. It also holds the state of
// the providers' credential pools (which key to use next, which keys are cooling down).
import { Pool, type Dispatcher } from 'undici'
import type { CancelSignal } from '../../domain/cancellation.ts'
import type { ProviderEntry } from '../../domain/catalog.ts'
import { systemClock } from '../../domain/clock.ts'
import { CredentialPools } from './credential-pools.ts'

export interface UpstreamCall {
  /** The provider's base URL (`https://api.openai.com/v1`); `path` is appended to it. */
  readonly baseUrl: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly signal: CancelSignal
  /** Time allowed until the response headers arrive. */
  readonly headersTimeoutMs: number
  /** Longest silence allowed between body chunks. */
  readonly bodyTimeoutMs: number
}

export interface UpstreamAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly body: Dispatcher.ResponseData['body']
  /**
   * A pool credential with a token limit: charges it the tokens the answer reports (input plus output)
   * beyond the estimate it was charged before the send. Whoever reads the answer's usage calls it once.
   */
  readonly settleCredentialTokens?: (usedTokens: number) => Promise<void>
}

/** An upstream answered 401 or 403 to the gateway's credentials (reported so the operator's log says so). */
export interface CredentialRejection {
  readonly provider: ProviderEntry
  readonly status: number
  /** The upstream's message, with the credential blanked. */
  readonly upstreamMessage: string
}

export interface TransportOptions {
  readonly connectionsPerOrigin: number
  readonly keepAliveTimeoutMs: number
}

export class UpstreamTransport {
  readonly #pools = new Map<string, Pool>()
  readonly #bases = new Map<string, { readonly pool: Pool; readonly prefix: string }>()
  readonly #options: TransportOptions
  readonly #onCredentialsRejected: (rejection: CredentialRejection) => void
  readonly credentials: CredentialPools

  constructor(
    options: TransportOptions = { connectionsPerOrigin: 128, keepAliveTimeoutMs: 30_000 },
    onCredentialsRejected: (rejection: CredentialRejection) => void = () => undefined,
    credentials: CredentialPools = new CredentialPools(systemClock),
  ) {
    this.#options = options
    this.#onCredentialsRejected = onCredentialsRejected
    this.credentials = credentials
  }

  /** Tells the listener the composition root gave (a log line naming the provider and what to fix). */
  reportCredentialsRejected(rejection: CredentialRejection): void {
    this.#onCredentialsRejected(rejection)
  }

  async send(call: UpstreamCall): Promise<UpstreamAnswer> {
    const base = this.#base(call.baseUrl)
    const response = await base.pool.request({
      method: 'POST',
      path: `${base.prefix}${call.path}`,
      headers: { 'content-type': 'application/json', ...call.headers },
      body: call.body,
      signal: call.signal,
      headersTimeout: call.headersTimeoutMs,
      bodyTimeout: call.bodyTimeoutMs,
    })
    return { status: response.statusCode, headers: response.headers, body: response.body }
  }

  async close(): Promise<void> {
    const pools = [...this.#pools.values()]
    this.#pools.clear()
    this.#bases.clear()
    await Promise.all(pools.map((pool) => pool.close()))
  }

  /** The pool and path prefix of a provider base URL, parsed once per distinct URL. */
  #base(baseUrl: string): { readonly pool: Pool; readonly prefix: string } {
    let base = this.#bases.get(baseUrl)
    if (base === undefined) {
      const url = new URL(baseUrl)
      base = { pool: this.#pool(url.origin), prefix: url.pathname.replace(/\/+$/, '') }
      this.#bases.set(baseUrl, base)
    }
    return base
  }

  #pool(origin: string): Pool {
    let pool = this.#pools.get(origin)
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections: this.#options.connectionsPerOrigin,
        keepAliveTimeout: this.#options.keepAliveTimeoutMs,
        pipelining: 1,
      })
      this.#pools.set(origin, pool)
    }
    return pool
  }
}

/** Reads at most `limit` bytes of a body as text (error bodies), discarding the rest. */
export async function readCapped(body: UpstreamAnswer['body'], limit = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    const buffer = chunk as Buffer
    if (size < limit) chunks.push(buffer.subarray(0, limit - size))
    size += buffer.length
  }
  return Buffer.concat(chunks).toString('utf8')
}

export class ResponseTooLarge extends Error {
  constructor(limit: number) {
    super(`the upstream response is larger than ${limit} bytes`)
    this.name = 'ResponseTooLarge'
  }
}

/** Reads a whole body up to `limit` bytes; larger bodies are abandoned with ResponseTooLarge. */
export async function readAllCapped(body: UpstreamAnswer['body'], limit = 64 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    const buffer = chunk as Buffer
    size += buffer.length
    if (size > limit) {
      body.destroy()
      throw new ResponseTooLarge(limit)
    }
    chunks.push(buffer)
  }
  return Buffer.concat(chunks)
}
