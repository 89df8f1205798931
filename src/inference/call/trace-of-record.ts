// The observability trace of a finished generation, from its record plus what only the entry point
// knows (first-token time, cost allocation, the request's trace fields, input and output text).
import { nanoToUsd } from '../../domain/money.ts'
import type { GenerationRecord } from '../../generations/generation-record.ts'
import type { GenerationTrace } from '../../observability/generation-trace.ts'
import type { CallRequest } from './call-request.ts'
import { isoTime } from '../../domain/iso-time.ts'

const contextHeaders = ['http-referer', 'x-title', 'x-openrouter-title', 'x-openrouter-categories', 'user-agent']

export type TraceExtras = Pick<GenerationTrace, 'costAllocation' | 'input' | 'output'> & {
  /** Epoch milliseconds of the first streamed token (null when not streamed). */
  readonly firstTokenAtMs: number | null
  /** The request's `trace` field, forwarded to destinations. */
  readonly trace: Readonly<Record<string, unknown>> | null
}

export function traceOfRecord(
  request: CallRequest,
  record: GenerationRecord,
  endedAtMs: number,
  extras: TraceExtras,
): GenerationTrace {
  const headers: Record<string, string> = {}
  for (const name of contextHeaders) {
    const value = request.headers[name]
    if (typeof value === 'string') headers[name] = value
  }
  return {
    generationId: record.id,
    requestId: request.requestId,
    workspaceId: record.workspaceId,
    apiKeyHash: record.keyHash,
    apiKeyName: request.key.name,
    model: record.model,
    provider: record.provider ?? 'unknown',
    timing: {
      startedAt: isoTime(request.startedAt),
      endedAt: isoTime(endedAtMs),
      latencyMs: endedAtMs - request.startedAt,
      timeToFirstTokenMs: extras.firstTokenAtMs === null ? null : extras.firstTokenAtMs - request.startedAt,
    },
    usage: {
      promptTokens: record.tokensPrompt,
      completionTokens: record.tokensCompletion,
      cachedTokens: record.tokensCached,
      reasoningTokens: record.tokensReasoning,
    },
    finishReason: record.finishReason,
    sessionId: record.sessionId,
    user: record.endUser ?? request.key.externalUser,
    costUsd: nanoToUsd(record.costNano),
    costAllocation: extras.costAllocation,
    requestContext: { headers, trace: extras.trace },
    input: extras.input,
    output: extras.output,
  }
}
