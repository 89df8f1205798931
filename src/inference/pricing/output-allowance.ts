// The output side of a call's worst case, for the 402 that refuses it: the output tokens the
// reservation assumes (`max_output_tokens`, else the endpoint's limit) and how many a smaller amount
// pays for at the dearest endpoint that may serve it, with the estimated input.
import { ATTO_PER_NANO, costAtto } from '../../domain/money.ts'
import type { CanonicalCall } from '../../domain/inference/call.ts'
import type { EndpointEntry } from '../../domain/catalog.ts'
import type { OutputAllowance } from '../../accounting/refusal-message.ts'
import { maxOutputTokens } from './estimate-worst-case.ts'

export function outputAllowance(
  call: Omit<CanonicalCall, 'model'>,
  endpoints: readonly EndpointEntry[],
  inputTokens: number,
): OutputAllowance {
  const requestedTokens = endpoints.reduce(
    (most, endpoint) => Math.max(most, maxOutputTokens(call, endpoint, inputTokens)),
    0,
  )
  return {
    requestedTokens,
    affordableTokens: (availableNano) =>
      endpoints.reduce(
        (fewest, endpoint) => Math.min(fewest, affordableAt(endpoint, inputTokens, availableNano)),
        requestedTokens,
      ),
  }
}

/** The most output tokens whose cost, with the input, rounds up to at most `availableNano`. */
function affordableAt(endpoint: EndpointEntry, inputTokens: number, availableNano: bigint): number {
  const leftAtto =
    availableNano * ATTO_PER_NANO - costAtto(endpoint.pricing, { promptTokens: inputTokens, completionTokens: 0 })
  if (leftAtto < 0n) return 0
  const perToken = endpoint.pricing.completion
  if (perToken === 0n) return Number.MAX_SAFE_INTEGER
  const tokens = leftAtto / perToken
  return tokens > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(tokens)
}
