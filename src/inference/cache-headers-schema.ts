// The response cache's headers on the inference routes (chat/completions, responses, messages,
// embeddings), for the OpenAPI document: what a request may send (cache-choice.ts validates them; a
// nonsense value is a 400) and what a 200 answer of a request that used the cache carries
// (cached-execute.ts). See docs/caching.md.
import { Type } from 'typebox'

export const cacheRequestHeaders = Type.Object({
  'x-openrouter-cache': Type.Optional(
    Type.String({
      description:
        "true: look the request up in the response cache and store its answer on a miss; false: do not use the cache (case-insensitive). Absent: the key's or workspace's cache_enabled decides; a key or workspace with cache_enabled false ignores this header",
      examples: ['true'],
    }),
  ),
  'x-openrouter-cache-ttl': Type.Optional(
    Type.String({
      pattern: '^\\s*[0-9]{1,9}\\s*$',
      description:
        "Seconds a stored answer is kept: a whole number from 1 to cache.max_ttl_seconds (default: the key's cache_ttl_seconds, else the workspace's, else cache.default_ttl_seconds)",
      examples: ['300'],
    }),
  ),
})

const cacheStatusHeaders = {
  'x-openrouter-cache-status': {
    type: 'string',
    enum: ['HIT', 'MISS'],
    description:
      'Present when the request used the response cache: HIT (answered from the cache, nothing billed) or MISS',
  },
  'x-openrouter-cache-ttl': {
    type: 'string',
    pattern: '^[0-9]+$',
    description: 'Present when the request used the response cache: the TTL in seconds that applies',
  },
} as const

/** The 200 answer of chat/completions, responses and messages: JSON, or an SSE stream when `stream` is true. */
export const cachedAnswer = {
  description: "The answer in the route's format: JSON, or a server-sent event stream when the request asked to stream",
  headers: cacheStatusHeaders,
  content: {
    'application/json': { schema: { type: 'object', description: 'The whole answer' } },
    'text/event-stream': { schema: { type: 'string', description: 'The answer as server-sent events' } },
  },
} as const

/** The 200 answer of embeddings (never streamed). */
export const cachedEmbeddingsAnswer = {
  description: 'The embeddings',
  headers: cacheStatusHeaders,
  content: { 'application/json': { schema: { type: 'object', description: 'The whole answer' } } },
} as const

/** The inference routes' serializer: the body goes out exactly as the pipeline built it. */
export const serializeAsIs = (data: unknown): string => JSON.stringify(data)
