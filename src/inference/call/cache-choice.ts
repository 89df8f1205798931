// Whether a call uses the response cache, and for how long an answer it stores is kept, from the
// request's `X-OpenRouter-Cache` / `X-OpenRouter-Cache-TTL` headers, the key's and the workspace's
// settings and the gateway's bounds. The key or the workspace turning caching off wins over everything;
// otherwise the header decides (`false` opts a single request out), then the key, then the workspace.
// Nonsense in either header is a 400 naming the header and what it accepts.
import type { IncomingHttpHeaders } from 'node:http'
import type { ResponseCacheSetting } from '../../config/config.ts'
import { GatewayError } from '../../domain/errors.ts'

/** A key's or workspace's caching: on for every call, off for every call, or left to the request (null). */
export interface CacheSettings {
  readonly enabled: boolean | null
  /** The TTL of the answers its calls store, when the request names none (null: the next level's). */
  readonly ttlSeconds: number | null
}

export interface CacheChoice {
  readonly ttlSeconds: number
}

export const noCacheSettings: CacheSettings = { enabled: null, ttlSeconds: null }

export function cacheChoice(
  headers: IncomingHttpHeaders,
  levels: { readonly key: CacheSettings; readonly workspace: CacheSettings },
  limits: ResponseCacheSetting,
): CacheChoice | null {
  const asked = cacheHeader(headers)
  const ttl = ttlHeader(headers, limits.max_ttl_seconds)
  if (!limits.enabled || levels.key.enabled === false || levels.workspace.enabled === false) return null
  if (asked === false) return null
  if (asked === null && levels.key.enabled !== true && levels.workspace.enabled !== true) return null
  const chosen = ttl ?? levels.key.ttlSeconds ?? levels.workspace.ttlSeconds ?? limits.default_ttl_seconds
  return { ttlSeconds: Math.min(chosen, limits.max_ttl_seconds) }
}

function cacheHeader(headers: IncomingHttpHeaders): boolean | null {
  const value = headers['x-openrouter-cache']
  if (value === undefined) return null
  const normalized = typeof value === 'string' ? value.trim().toLowerCase() : ''
  if (normalized === 'true') return true
  if (normalized === 'false') return false
  throw new GatewayError(
    'invalid_request',
    'Invalid request parameters: the X-OpenRouter-Cache header must be true or false',
  )
}

function ttlHeader(headers: IncomingHttpHeaders, maxTtlSeconds: number): number | null {
  const value = headers['x-openrouter-cache-ttl']
  if (value === undefined) return null
  const text = typeof value === 'string' ? value.trim() : ''
  const seconds = /^[0-9]{1,9}$/.test(text) ? Number(text) : Number.NaN
  if (!(seconds >= 1 && seconds <= maxTtlSeconds)) {
    throw new GatewayError(
      'invalid_request',
      `Invalid request parameters: the X-OpenRouter-Cache-TTL header must be a whole number of seconds from 1 to ${maxTtlSeconds}`,
    )
  }
  return seconds
}
