// What every adapter's errors.ts shares: the status table, the Retry-After reading and a safe table
// lookup. Provider tables keyed by the upstream's error type override the status table.

import type { ErrorKind } from '../domain/errors.ts'
import type { ResponseHeaders, UpstreamFailure } from './provider-adapter.ts'

/** Upstream HTTP status -> kind. 401/403 mean the gateway's credential is wrong, not the client's. */
export const statusErrorKinds: Readonly<Record<number, ErrorKind>> = {
  400: 'invalid_request',
  401: 'upstream_error',
  403: 'upstream_error',
  404: 'upstream_error',
  408: 'upstream_timeout',
  413: 'payload_too_large',
  422: 'invalid_request',
  429: 'rate_limited',
  500: 'upstream_error',
  502: 'upstream_error',
  503: 'upstream_error',
  504: 'upstream_timeout',
  529: 'upstream_overloaded',
}

/** Statuses whose upstream message describes the gateway's own credential; clients get a plain one. */
const credentialStatuses: ReadonlySet<number> = new Set([401, 403])

/** Looks a key up in a kind table without ever reaching Object.prototype (`constructor`, ...). */
export function lookupKind(table: Readonly<Record<string, ErrorKind>>, key: unknown): ErrorKind | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined
}

export interface FailureDetails {
  readonly provider: string
  readonly status: number
  /** The kind from the provider's type table, if its error type is known. */
  readonly typeKind: ErrorKind | undefined
  readonly upstreamMessage: string | undefined
  readonly headers: ResponseHeaders
  /** A retry delay the body gave (Gemini RetryInfo), used when no header says. */
  readonly bodyRetryAfterSeconds?: number
}

export function upstreamFailure(details: FailureDetails): UpstreamFailure {
  const kind = details.typeKind ?? statusErrorKinds[details.status] ?? 'upstream_error'
  const message = credentialStatuses.has(details.status)
    ? `${details.provider} rejected the gateway's credentials (HTTP ${details.status})`
    : `${details.provider}: ${details.upstreamMessage ?? `HTTP ${details.status}`}`
  const retryAfterSeconds = parseRetryAfter(details.headers) ?? details.bodyRetryAfterSeconds
  return retryAfterSeconds === undefined ? { kind, message } : { kind, message, retryAfterSeconds }
}

function headerValue(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name]
  return typeof value === 'string' ? value : value?.[0]
}

/** Reads `retry-after-ms`, then `retry-after` (seconds or an HTTP date), in whole seconds rounded up. */
export function parseRetryAfter(headers: ResponseHeaders, nowMs: number = Date.now()): number | undefined {
  const milliseconds = Number(headerValue(headers, 'retry-after-ms') ?? Number.NaN)
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return Math.ceil(milliseconds / 1000)
  const raw = headerValue(headers, 'retry-after')?.trim()
  if (raw === undefined || raw === '') return undefined
  if (/^\d+(\.\d+)?$/.test(raw)) return Math.ceil(Number(raw))
  const date = Date.parse(raw)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000))
}

/** Parses an error body that may not be JSON at all (proxies answer HTML). */
export function parseErrorBody(body: string): unknown {
  try {
    return JSON.parse(body) as unknown
  } catch {
    return undefined
  }
}
