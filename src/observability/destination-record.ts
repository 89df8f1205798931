// The record one destination receives for one generation (JSON on the wire for webhook and s3, span
// attributes for OTLP). Optional parts are present only when the destination's flags allow them.

export interface DestinationRecord {
  readonly id: string
  /** 32 lower-case hex digits: the request's trace.trace_id when request context is shared and it is one, else derived from the generation id. */
  readonly trace_id: string
  readonly span_id: string
  readonly request_id: string
  readonly workspace_id: string
  readonly api_key_hash: string
  readonly model: string
  readonly provider: string
  readonly started_at: string
  readonly ended_at: string
  readonly latency_ms: number
  readonly time_to_first_token_ms: number | null
  readonly usage: {
    readonly prompt_tokens: number
    readonly completion_tokens: number
    readonly total_tokens: number
    readonly cached_tokens: number
    readonly reasoning_tokens: number
  }
  readonly finish_reason: string | null
  readonly session_id: string | null
  /** With broadcast_generation_cost. */
  readonly cost?: number
  /** With broadcast_generation_cost_allocation, only when it sums to `cost` exactly. */
  readonly cost_allocation?: {
    readonly prompt: number
    readonly completion: number
    readonly cached: number
    readonly reasoning: number
  }
  /** With broadcast_generation_identity. */
  readonly user?: string | null
  readonly api_key_name?: string
  /** With broadcast_generation_request_context. */
  readonly request_context?: {
    readonly headers: Readonly<Record<string, string>>
    readonly trace: Readonly<Record<string, unknown>> | null
  }
  /** Never with privacy_mode. */
  readonly input?: { readonly messages: readonly { readonly role: string; readonly content: string }[] }
  readonly output?: { readonly completion: string; readonly reasoning: string | null }
}

/** What the outbox stores: the record plus what routing needs that the record may not carry. */
export interface OutboxPayload {
  readonly record: DestinationRecord
  /** For the s3 {apiKeyName} path variable; always stored, never sent unless the identity flag is on. */
  readonly apiKeyName: string
}
