// Canonical usage (input includes cached tokens, output includes reasoning tokens) split into the
// disjoint billable counts the price table multiplies.
import type { Usage } from '../../domain/inference/usage.ts'
import { costNano, type BillableUsage, type Pricing } from '../../domain/money.ts'

export function toBillableUsage(usage: Usage): BillableUsage {
  const cached = Math.min(usage.cached_input_tokens, usage.input_tokens)
  const cacheWrites = Math.min(usage.cache_write_tokens, usage.input_tokens - cached)
  const reasoning = Math.min(usage.reasoning_tokens, usage.output_tokens)
  return {
    promptTokens: usage.input_tokens - cached - cacheWrites,
    inputCacheReadTokens: cached,
    inputCacheWriteTokens: cacheWrites,
    completionTokens: usage.output_tokens - reasoning,
    reasoningTokens: reasoning,
  }
}

export function usageCostNano(pricing: Pricing, usage: Usage): bigint {
  return costNano(pricing, toBillableUsage(usage))
}
