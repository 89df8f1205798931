// The response cache's key of a call: a SHA-256 over the endpoint kind (chat, responses, messages,
// embeddings), the model, the API key (its stored hash), the streaming mode and the request body as the
// client sent it. Two requests share an answer only when all five are equal; the body is hashed in its
// own property order, so reordered JSON is a different request.
import { createHash } from 'node:crypto'

export interface CacheKeyParts {
  /** Which API the call came through (its answers are in that API's format). */
  readonly endpoint: string
  readonly model: string
  readonly keyHash: string
  readonly stream: boolean
  /** The request body as received (before presets and defaults). */
  readonly body: unknown
}

export function cacheKey(parts: CacheKeyParts): string {
  const hash = createHash('sha256')
  hash.update(JSON.stringify([parts.endpoint, parts.model, parts.keyHash, parts.stream]))
  hash.update('\n')
  hash.update(JSON.stringify(parts.body) ?? 'null')
  return hash.digest('hex')
}
