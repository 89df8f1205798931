// A request's `cache_control` (null or absent: none) as the canonical breakpoint, kept exactly as sent,
// spread into a part or tool: `{...withCacheControl(block.cache_control)}`.
import type { CacheControl } from '../domain/inference/message.ts'

export type GivenCacheControl = { readonly type: 'ephemeral'; readonly ttl?: '5m' | '1h' } | null | undefined

export function withCacheControl(given: GivenCacheControl): { cache_control?: CacheControl } {
  if (given == null) return {}
  return { cache_control: given.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: given.ttl } }
}

/** Whether any of the parts carries a caching breakpoint (then they stay parts instead of one text). */
export function hasCacheControl(parts: readonly object[]): boolean {
  return parts.some((part) => 'cache_control' in part && part.cache_control != null)
}
