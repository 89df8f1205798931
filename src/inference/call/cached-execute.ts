// The response cache around a call's execution. A call that uses the cache (cache-choice.ts) and can be
// cached (the entry point says what identifies it) is looked up by its key (cache-key.ts): a hit is
// answered from the entry (its guardrails re-checked, nothing reserved, billed or charged to the
// tokens-per-minute budgets) unless the entry point cannot serve it here, and a miss is charged its
// estimated input and runs the call, capturing its answer to store once the call's record says it
// completed. Answers carry `X-OpenRouter-Cache-Status` and `X-OpenRouter-Cache-TTL`.
import type { CachedAnswer, ResponseCache } from '../../response-cache/response-cache.ts'
import type { CallRequest } from './call-request.ts'
import type { CacheChoice } from './cache-choice.ts'
import { cacheKey } from './cache-key.ts'

/** What the cache adds to one answer. */
export interface CacheTurn {
  /** Headers for a 200 answer (empty when the call does not use the cache). */
  readonly headers: Readonly<Record<string, string>>
  /** Whether the entry point captures its answer for the cache. */
  readonly capture: boolean
}

/** What identifies a call's answer besides its model and key; null when its answers are never cached. */
export interface CacheableCall {
  /** Which API the call came through (answers are in its format). */
  readonly endpoint: string
  readonly stream: boolean
  /** The request body as the client sent it. */
  readonly body: unknown
}

export interface CachingSteps<P> {
  cacheable(prepared: P): CacheableCall | null
  execute(prepared: P, turn: CacheTurn): Promise<void>
  /** Answers from a cached answer; false when this entry cannot be served here (the call then runs as a miss). */
  replay(prepared: P, cached: CachedAnswer, turn: CacheTurn): Promise<boolean>
}

/** A miss whose answer may be stored once the call completed. */
export interface PendingSave {
  readonly key: string
  readonly ttlSeconds: number
}

export const noCacheTurn: CacheTurn = { headers: {}, capture: false }

export async function cachedExecute<P extends { readonly model: string }>(
  request: Pick<CallRequest, 'key'>,
  prepared: P,
  choice: CacheChoice | null,
  steps: CachingSteps<P>,
  cache: ResponseCache,
  /** Charges the call's estimated input to the tokens-per-minute budgets: only a call that executes is charged. */
  chargeInput: () => Promise<void>,
): Promise<PendingSave | null> {
  const cacheable = choice === null ? null : steps.cacheable(prepared)
  if (choice === null || cacheable === null) {
    await chargeInput()
    await steps.execute(prepared, noCacheTurn)
    return null
  }
  const key = cacheKey({ ...cacheable, model: prepared.model, keyHash: request.key.hash })
  const ttl = String(choice.ttlSeconds)
  const cached = await cache.lookup(key)
  if (cached !== null) {
    const hit = { headers: { 'x-openrouter-cache-status': 'HIT', 'x-openrouter-cache-ttl': ttl }, capture: false }
    if (await steps.replay(prepared, cached, hit)) return null
  }
  await chargeInput()
  await steps.execute(prepared, {
    headers: { 'x-openrouter-cache-status': 'MISS', 'x-openrouter-cache-ttl': ttl },
    capture: true,
  })
  return { key, ttlSeconds: choice.ttlSeconds }
}
