// The most a call can cost before it is made, reserved against every limit that applies: the input
// estimated generously from its size (at least one token per 3 bytes of JSON) and the whole output
// allowance (`max_output_tokens`, else the endpoint's output limit, else what fits in the context) at
// the dearest endpoint that may serve it.
import { costNano } from '../../domain/money.ts'
import type { CanonicalCall } from '../../domain/inference/call.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'

/** The input tokens of a call, estimated generously from its size (an upper bound to reserve, not a count). */
export function estimateInputTokens(call: Pick<CanonicalCall, 'messages' | 'tools'>): number {
  const size = Buffer.byteLength(JSON.stringify({ messages: call.messages, tools: call.tools ?? [] }))
  return Math.ceil(size / 3) + 16
}

export function maxOutputTokens(
  call: Omit<CanonicalCall, 'model'>,
  endpoint: EndpointEntry,
  inputTokens: number,
): number {
  if (call.max_output_tokens !== undefined) return call.max_output_tokens
  if (endpoint.maxOutputTokens !== null) return endpoint.maxOutputTokens
  return Math.max(1, endpoint.contextLength - inputTokens)
}

/** `inputTokens` defaults to `estimateInputTokens(call)`; pass it when already computed (it serializes the call). */
export function estimateWorstCaseNano(
  call: Omit<CanonicalCall, 'model'>,
  endpoints: readonly EndpointEntry[],
  inputTokens = estimateInputTokens(call),
): bigint {
  let worst = 0n
  for (const endpoint of endpoints) {
    const output = maxOutputTokens(call, endpoint, inputTokens)
    const cost = costNano(endpoint.pricing, { promptTokens: inputTokens, completionTokens: output })
    if (cost > worst) worst = cost
  }
  return worst
}
