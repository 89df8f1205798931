// The observability trace of a finished client-dialect call, from the same facts as its record.
import type { GenerationTrace } from '../../observability/generation-trace.ts'
import type { GenerationRecord } from '../../generations/generation-record.ts'
import { traceOfRecord } from '../call/trace-of-record.ts'
import { allocateCost } from './allocate-cost.ts'
import type { CallFacts } from './call-facts.ts'
import type { InferenceRequest } from './inference-request.ts'

export function buildGenerationTrace(
  request: InferenceRequest,
  facts: CallFacts,
  record: GenerationRecord,
  endedAtMs: number,
): GenerationTrace {
  return traceOfRecord(request, record, endedAtMs, {
    firstTokenAtMs: facts.firstTokenAtMs,
    costAllocation:
      facts.endpoint === null || facts.usage === null
        ? null
        : allocateCost(facts.endpoint.pricing, facts.usage, record.costNano),
    trace: facts.prepared?.decoded.options.trace ?? null,
    input: {
      messages: (facts.prepared?.decoded.call.messages ?? []).map((message) => ({
        role: message.role,
        content: textOf(message.content),
      })),
    },
    output: { text: facts.completion ?? '', reasoning: facts.reasoning === '' ? null : facts.reasoning },
  })
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content
    .map((part: { type?: string; text?: string }) =>
      part.type === 'text' ? (part.text ?? '') : `[${part.type ?? 'part'}]`,
    )
    .join('')
}
