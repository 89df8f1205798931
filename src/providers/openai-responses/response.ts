// Responses API JSON -> canonical result.

import { GatewayError } from '../../domain/errors.ts'
import type { CanonicalResult, OutputItem } from '../../domain/inference/result.ts'
import { makeUsage } from '../../domain/inference/usage.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import { mapResponsesOutcome } from './finish-reason.ts'
import type { ResponsesOutputItem, ResponsesResponse, ResponsesUsage } from './wire.ts'

/** Summary parts of one reasoning item are joined with a blank line, in both paths. */
export const summarySeparator = '\n\n'

export function parseResponsesResponse(body: unknown): CanonicalResult {
  const response = body as Partial<ResponsesResponse> | null
  if (typeof response?.id !== 'string' || !Array.isArray(response.output) || response.status === undefined) {
    throw new GatewayError('upstream_error', 'OpenAI returned a response without output')
  }
  const output = response.output.flatMap(toOutputItems)
  const outcome = mapResponsesOutcome(
    { status: response.status, incomplete_details: response.incomplete_details },
    output.some((item) => item.type === 'tool-call'),
  )
  return Object.assign({ id: response.id, model: response.model ?? '', output }, outcome, {
    usage: toUsage(response.usage),
  })
}

function toOutputItems(item: ResponsesOutputItem): OutputItem[] {
  switch (item.type) {
    case 'message':
      return item.content.map((part) => ({
        type: 'text' as const,
        text: part.type === 'output_text' ? part.text : part.refusal,
      }))
    case 'reasoning': {
      const text = [...(item.summary ?? []), ...(item.content ?? [])].map((part) => part.text).join(summarySeparator)
      const encrypted = item.encrypted_content ?? undefined
      return [
        {
          type: 'reasoning',
          id: item.id,
          text,
          ...(encrypted === undefined ? {} : { encrypted_content: encrypted }),
          origin: 'openai-responses',
        },
      ]
    }
    case 'function_call':
      return [{ type: 'tool-call', id: item.call_id, name: item.name, arguments: item.arguments }]
    default:
      return []
  }
}

export function toUsage(usage: ResponsesUsage | null | undefined): Usage {
  return makeUsage({
    input_tokens: usage?.input_tokens,
    output_tokens: usage?.output_tokens,
    cached_input_tokens: usage?.input_tokens_details?.cached_tokens ?? undefined,
    reasoning_tokens: usage?.output_tokens_details?.reasoning_tokens ?? undefined,
    total_tokens: usage?.total_tokens,
  })
}
