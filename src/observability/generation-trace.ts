// What inference hands to observability once a generation has finished (or failed): the facts of one
// generation. Destinations receive a per-destination subset of it (see build-destination-record.ts).
import type { Region } from './destination-types.ts'

export interface TokenUsage {
  readonly promptTokens: number
  readonly completionTokens: number
  readonly cachedTokens: number
  readonly reasoningTokens: number
}

/** USD per token kind; forwarded only when it sums to the billed cost exactly (in nano-dollars). */
export interface CostAllocation {
  readonly prompt: number
  readonly completion: number
  readonly cached: number
  readonly reasoning: number
}

export interface InputMessage {
  readonly role: string
  readonly content: string
}

export interface GenerationTrace {
  readonly generationId: string
  readonly requestId: string
  readonly workspaceId: string
  readonly apiKeyHash: string
  readonly apiKeyName: string
  /** Where the request was served; destinations list the regions they accept. Default global. */
  readonly region?: Region
  readonly model: string
  readonly provider: string
  readonly timing: {
    readonly startedAt: string
    readonly endedAt: string
    readonly latencyMs: number
    readonly timeToFirstTokenMs: number | null
  }
  readonly usage: TokenUsage
  readonly finishReason: string | null
  readonly sessionId: string | null
  /** The end-user tracking string (`user` on the request or the key's external user). */
  readonly user: string | null
  /** Billed cost in USD. */
  readonly costUsd: number
  readonly costAllocation: CostAllocation | null
  readonly requestContext: {
    /** Attribution headers (http-referer, x-title, x-openrouter-title, ...), lower-case names. */
    readonly headers: Readonly<Record<string, string>>
    /** The request's `trace` object (trace_id, trace_name, span_name, generation_name, parent_span_id, custom keys). */
    readonly trace: Readonly<Record<string, unknown>> | null
  }
  readonly input: { readonly messages: readonly InputMessage[] }
  readonly output: { readonly text: string; readonly reasoning: string | null }
}
