// How a generation's billed cost splits by kind (prompt, completion, cached input, reasoning), for the
// observability destinations that report it. Each part is what `costNano` charges for that kind's
// tokens alone; the prompt part also carries cache writes and the request fee. Rounding each part up
// can make the parts exceed the billed total; then there is no allocation.
import type { CostAllocation } from '../../observability/generation-trace.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import { costNano, nanoToUsd, type Pricing } from '../../domain/money.ts'
import { toBillableUsage } from '../pricing/billable-usage.ts'

export function allocateCost(pricing: Pricing, usage: Usage, billedNano: bigint): CostAllocation | null {
  const billable = toBillableUsage(usage)
  // `requests: 0` leaves the request fee out of every part but the prompt's.
  const prompt = costNano(pricing, {
    promptTokens: billable.promptTokens,
    completionTokens: 0,
    inputCacheWriteTokens: billable.inputCacheWriteTokens,
  })
  const completion = costNano(pricing, { promptTokens: 0, completionTokens: billable.completionTokens, requests: 0 })
  const cached = costNano(pricing, {
    promptTokens: 0,
    completionTokens: 0,
    inputCacheReadTokens: billable.inputCacheReadTokens,
    requests: 0,
  })
  const reasoning = costNano(pricing, {
    promptTokens: 0,
    completionTokens: 0,
    reasoningTokens: billable.reasoningTokens,
    requests: 0,
  })
  if (prompt + completion + cached + reasoning !== billedNano) return null
  return {
    prompt: nanoToUsd(prompt),
    completion: nanoToUsd(completion),
    cached: nanoToUsd(cached),
    reasoning: nanoToUsd(reasoning),
  }
}
