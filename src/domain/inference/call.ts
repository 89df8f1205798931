// The canonical inference call: what the pipeline hands to a provider adapter, whatever the client
// dialect was. Field names follow the wire habit of the public API (snake_case).

import type { CacheControl, Message } from './message.ts'

export interface FunctionTool {
  readonly type: 'function'
  readonly name: string
  readonly description?: string
  /** A JSON Schema object. */
  readonly parameters?: Readonly<Record<string, unknown>>
  readonly strict?: boolean
  /** A prompt-caching breakpoint after the tool definitions up to this one (Anthropic). */
  readonly cache_control?: CacheControl
}

export type ToolChoice = 'auto' | 'none' | 'required' | { readonly name: string }

export type ResponseFormat =
  | { readonly type: 'text' }
  | { readonly type: 'json_object' }
  | {
      readonly type: 'json_schema'
      readonly name: string
      readonly schema: Readonly<Record<string, unknown>>
      readonly strict?: boolean
      readonly description?: string
    }

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high'

export interface ReasoningConfig {
  readonly effort?: ReasoningEffort
  /** A thinking budget in tokens (Anthropic `budget_tokens`, Gemini `thinkingBudget`). */
  readonly max_tokens?: number
  readonly summary?: 'auto' | 'concise' | 'detailed'
  /** false turns reasoning off where the upstream allows it. */
  readonly enabled?: boolean
}

export interface CanonicalCall {
  /** The model id as sent upstream (`upstream_model_id` of the endpoint). */
  readonly model: string
  readonly messages: readonly Message[]
  readonly tools?: readonly FunctionTool[]
  readonly tool_choice?: ToolChoice
  readonly parallel_tool_calls?: boolean
  readonly max_output_tokens?: number
  readonly temperature?: number
  readonly top_p?: number
  readonly top_k?: number
  readonly frequency_penalty?: number
  readonly presence_penalty?: number
  readonly seed?: number
  readonly stop?: readonly string[]
  readonly response_format?: ResponseFormat
  readonly reasoning?: ReasoningConfig
  readonly logprobs?: boolean
  readonly top_logprobs?: number
  /** The end user, for upstream abuse monitoring. */
  readonly user?: string
  readonly stream: boolean
  readonly service_tier?: string
  /** Provider-specific fields merged into the upstream body as given (the last word on conflicts). */
  readonly extra?: Readonly<Record<string, unknown>>
}
