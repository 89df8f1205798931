// OTLP/HTTP export requests over undici, answered as OpenTelemetry's own HTTP transport answers them
// (@opentelemetry/otlp-exporter-base 0.223, transport/http-transport-utils.js): a 2xx is success; 429,
// 502, 503 and 504 are retryable after their Retry-After; any other status is a failure that carries it;
// a reset, refused or unreachable connection and a timeout are retryable. That transport sends with
// Node's http client, a stream piped into every request: about 500 K instructions an export, against a
// fraction of that through undici, which the upstream calls keep hot. The OpenTelemetry export delegate
// still runs the export (its concurrency limit, metrics and response handling), with retries from
// RetryingOtlpTransport below.
import { STATUS_CODES } from 'node:http'
import { gzip } from 'node:zlib'
import { promisify } from 'node:util'
import { setTimeout as sleep } from 'node:timers/promises'
import { Agent, request } from 'undici'
import { OTLPExporterError, type ExportResponse, type IExporterTransport } from '@opentelemetry/otlp-exporter-base'

const gzipped = promisify(gzip)

/** What the export needs of OpenTelemetry's merged configuration (`convertLegacyHttpOptions`). */
export interface OtlpHttpParameters {
  readonly url: string
  readonly headers: () => Promise<Record<string, string>>
  readonly compression: 'gzip' | 'none'
  readonly userAgent?: string
}

/** The User-Agent OpenTelemetry's transport sends, with the same version as the delegate. */
const exporterUserAgent = 'OTel-OTLP-Exporter-JavaScript/0.223.1'
/** A larger answer is not read: the export fails, whatever the status. */
const maxResponseBytes = 4 * 1024 * 1024
const retryableNetworkCodes = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENOTFOUND',
  'ENETUNREACH',
  'EHOSTUNREACH',
])
const timeoutCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT'])

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504
}

/** Retry-After (seconds or an HTTP date) in milliseconds, as OpenTelemetry reads it; undefined when absent. */
export function retryAfterMillis(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value
  if (text === undefined) return undefined
  const seconds = Number.parseInt(text, 10)
  if (Number.isInteger(seconds)) return seconds > 0 ? seconds * 1000 : -1
  const delay = new Date(text).getTime() - now
  return delay >= 0 ? delay : 0
}

function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
  return typeof code === 'string' ? code : undefined
}

/** One POST per export through a keep-alive connection pool of its own, closed by `close`. */
export class UndiciOtlpTransport implements IExporterTransport {
  readonly #parameters: OtlpHttpParameters
  readonly #agent = new Agent({ keepAliveTimeout: 30_000 })
  #closing: Promise<void> | null = null

  constructor(parameters: OtlpHttpParameters) {
    this.#parameters = parameters
  }

  async send(data: Uint8Array, timeoutMillis: number): Promise<ExportResponse> {
    const { url, compression, userAgent } = this.#parameters
    const headers: Record<string, string> = { ...(await this.#parameters.headers()) }
    headers['User-Agent'] = userAgent === undefined ? exporterUserAgent : `${userAgent} ${exporterUserAgent}`
    let body = data
    if (compression === 'gzip') {
      headers['Content-Encoding'] = 'gzip'
      body = await gzipped(data)
    }
    try {
      const response = await request(url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.#agent,
        headersTimeout: timeoutMillis,
        bodyTimeout: timeoutMillis,
      })
      return await answerOf(response)
    } catch (error) {
      const code = errorCode(error)
      if (code !== undefined && timeoutCodes.has(code))
        return { status: 'retryable', error: new Error('Request timed out') }
      const failure = error instanceof Error ? error : new Error(String(error))
      const cause = error instanceof Error ? errorCode(error.cause) : undefined
      const retryable =
        (code !== undefined && retryableNetworkCodes.has(code)) ||
        (cause !== undefined && retryableNetworkCodes.has(cause))
      return retryable ? { status: 'retryable', error: failure } : { status: 'failure', error: failure }
    }
  }

  shutdown(): void {
    void this.close()
  }

  /** Closes the connections once the requests in flight have ended. */
  close(): Promise<void> {
    return (this.#closing ??= this.#agent.close())
  }
}

type UndiciResponse = Awaited<ReturnType<typeof request>>

async function answerOf(response: UndiciResponse): Promise<ExportResponse> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > maxResponseBytes) {
      response.body.destroy()
      return {
        status: 'failure',
        error: new Error(`OTLP export response body exceeded size limit of ${maxResponseBytes} bytes`),
      }
    }
    chunks.push(chunk)
  }
  const { statusCode } = response
  if (statusCode <= 299) return { status: 'success', data: Buffer.concat(chunks) }
  if (isRetryableStatus(statusCode)) {
    const retryInMillis = retryAfterMillis(response.headers['retry-after'])
    return retryInMillis === undefined ? { status: 'retryable' } : { status: 'retryable', retryInMillis }
  }
  // Node's client reports the reason phrase the server sent; undici keeps none, so this is the standard one.
  const error = new OTLPExporterError(STATUS_CODES[statusCode] ?? '', statusCode, Buffer.concat(chunks).toString())
  return { status: 'failure', error }
}

/** How a retry waits and where its jitter comes from; real time unless a test says otherwise. */
export interface RetryTiming {
  readonly now: () => number
  readonly sleep: (ms: number) => Promise<unknown>
  readonly random: () => number
}

const realTiming: RetryTiming = { now: Date.now, sleep: (ms) => sleep(Math.max(0, ms)), random: Math.random }

/** OpenTelemetry's retry policy (retrying-transport.js): up to 5 retries, 1 s backing off 1.5x to 5 s, ±20% jitter. */
const maxRetries = 5
const initialBackoffMs = 1000
const maxBackoffMs = 5000
const backoffMultiplier = 1.5
const jitter = 0.2

/**
 * Sends again while the answer is retryable, after its Retry-After or the backoff, as long as the retry
 * starts before the export's deadline (`timeoutMillis` from the first send).
 */
export class RetryingOtlpTransport implements IExporterTransport {
  readonly #transport: UndiciOtlpTransport
  readonly #timing: RetryTiming

  constructor(transport: UndiciOtlpTransport, timing: RetryTiming = realTiming) {
    this.#transport = transport
    this.#timing = timing
  }

  async send(data: Uint8Array, timeoutMillis: number): Promise<ExportResponse> {
    const { now, random } = this.#timing
    const deadline = now() + timeoutMillis
    let nextBackoff = initialBackoffMs
    let result = await this.#transport.send(data, timeoutMillis)
    for (let retries = 0; result.status === 'retryable' && retries < maxRetries; retries++) {
      const backoff = Math.max(Math.min(nextBackoff * (1 + (random() * 2 * jitter - jitter)), maxBackoffMs), 0)
      nextBackoff *= backoffMultiplier
      const retryIn = result.retryInMillis ?? backoff
      const remaining = deadline - now()
      if (retryIn > remaining) return result
      await this.#timing.sleep(retryIn)
      result = await this.#transport.send(data, remaining)
    }
    return result
  }

  shutdown(): void {
    this.#transport.shutdown()
  }

  close(): Promise<void> {
    return this.#transport.close()
  }
}
