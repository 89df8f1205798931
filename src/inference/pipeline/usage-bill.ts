// What a text call's reported usage bills: its price at the endpoint that answered, with the token
// counts and end user the ledger row keeps.
import type { SettleInput } from '../../accounting/accounting-service.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import { usageCostNano } from '../pricing/billable-usage.ts'
import type { PreparedCall } from './prepare-call.ts'

export function usageBill(prepared: PreparedCall, endpoint: EndpointEntry, usage: Usage): SettleInput {
  return {
    costNano: usageCostNano(endpoint.pricing, usage),
    model: prepared.models[0]!,
    provider: endpoint.provider.slug,
    promptTokens: usage.input_tokens,
    completionTokens: usage.output_tokens,
    reasoningTokens: usage.reasoning_tokens,
    cachedTokens: usage.cached_input_tokens,
    cacheWriteTokens: usage.cache_write_tokens,
    endUser: prepared.decoded.options.user ?? null,
  }
}
