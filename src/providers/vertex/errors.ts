// Vertex AI errors. Google's own (authentication, quota, a Gemini model's) are google.rpc.Status
// (`{error: {code, message, status}}`, sometimes inside a one-element array); a Claude model's are
// Anthropic's (`{type: "error", error: {type, message}}`). Each goes through its family's table and is
// named after Vertex AI. Quota exhaustion is a 429 whose retry delay is 1 s when Vertex gives none.
import type { ResponseHeaders, UpstreamFailure } from '../provider-adapter.ts'
import { classifyAnthropicError } from '../anthropic/errors.ts'
import { classifyGeminiError } from '../gemini/errors.ts'
import { parseErrorBody } from '../upstream-failure.ts'

const provider = 'Vertex AI'

export function classifyVertexError(status: number, body: string, headers: ResponseHeaders): UpstreamFailure {
  const parsed = parseErrorBody(body)
  const unwrapped = Array.isArray(parsed) ? (parsed[0] as unknown) : parsed
  const error = typeof unwrapped === 'object' && unwrapped !== null ? (unwrapped as { error?: unknown }).error : null
  const anthropicShaped = typeof error === 'object' && error !== null && 'type' in error && !('status' in error)
  const text = Array.isArray(parsed) ? JSON.stringify(unwrapped) : body
  const failure = anthropicShaped
    ? renamed(classifyAnthropicError(status, text, headers), 'Anthropic')
    : renamed(classifyGeminiError(status, text, headers), 'Gemini')
  return failure.kind === 'rate_limited' && failure.retryAfterSeconds === undefined
    ? { ...failure, retryAfterSeconds: 1 }
    : failure
}

function renamed(failure: UpstreamFailure, family: string): UpstreamFailure {
  return failure.message.startsWith(family)
    ? { ...failure, message: provider + failure.message.slice(family.length) }
    : failure
}
