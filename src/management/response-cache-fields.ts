// The response-cache settings a key and a workspace carry (docs/caching.md "Per key and per workspace"):
// the same two fields on both objects and both create/update bodies, named as OpenRouter names them on
// presets. The TTL is held to the bounds of the X-OpenRouter-Cache-TTL header.
import { Type } from 'typebox'
import { GatewayError } from '../domain/errors.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])

const enabledDescription =
  'Response caching for the calls: true caches without the X-OpenRouter-Cache header, false turns caching off ' +
  '(the header is then ignored), null leaves it to the request'
const ttlDescription =
  'Seconds an answer stored by these calls is kept when the request sends no X-OpenRouter-Cache-TTL: ' +
  '1 to cache.max_ttl_seconds; null takes the next level (key, then workspace, then cache.default_ttl_seconds)'

/** The fields on the key and workspace objects. */
export const responseCacheFields = {
  cache_enabled: Nullable(Type.Boolean({ description: enabledDescription })),
  cache_ttl_seconds: Nullable(Type.Integer({ description: ttlDescription })),
}

/** The same fields in create and update bodies (absent: unchanged on update, null on create). */
export const responseCacheBodyFields = {
  cache_enabled: Type.Optional(Nullable(Type.Boolean({ description: enabledDescription }))),
  cache_ttl_seconds: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: 86_400, description: ttlDescription })),
  ),
}

/** Refuses a TTL above the gateway's `cache.max_ttl_seconds` (the schema bounds it by 86400 already). */
export function checkResponseCacheTtl(ttlSeconds: number | null | undefined, maxTtlSeconds: number): void {
  if (ttlSeconds === undefined || ttlSeconds === null || ttlSeconds <= maxTtlSeconds) return
  throw new GatewayError(
    'invalid_request',
    `Invalid request parameters: cache_ttl_seconds must be a whole number of seconds from 1 to ${maxTtlSeconds} (cache.max_ttl_seconds)`,
  )
}
