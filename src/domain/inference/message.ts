// Conversation messages of the canonical call. Every client dialect decodes into these and every
// provider adapter encodes from them.

import type { ReasoningOrigin } from './provider-api.ts'

/**
 * An Anthropic prompt-caching breakpoint: the prompt up to and including the part is cached upstream
 * (`ttl` 5 minutes by default). Providers that cache without markers ignore it.
 */
export interface CacheControl {
  readonly type: 'ephemeral'
  readonly ttl?: '5m' | '1h'
}

export interface TextPart {
  readonly type: 'text'
  readonly text: string
  readonly cache_control?: CacheControl
}

/** An image given by URL (http(s) or data:) or as base64 bytes with a media type. */
export type ImagePart =
  | {
      readonly type: 'image'
      readonly source: 'url'
      readonly url: string
      readonly detail?: 'auto' | 'low' | 'high'
      readonly cache_control?: CacheControl
    }
  | {
      readonly type: 'image'
      readonly source: 'base64'
      readonly media_type: string
      readonly data: string
      readonly cache_control?: CacheControl
    }

export type ContentPart = TextPart | ImagePart

export interface ToolCall {
  /** The upstream's tool call id (`call_...`, `toolu_...`); Gemini calls get a synthesized one. */
  readonly id: string
  readonly name: string
  /** The arguments as a JSON text, exactly as the model produced it. */
  readonly arguments: string
  /** Gemini's `thoughtSignature` on a functionCall part, to be sent back unchanged. */
  readonly signature?: string
}

/** Model reasoning carried between turns; only the provider that produced it can verify it. */
export interface ReasoningItem {
  readonly type: 'reasoning'
  readonly text: string
  /** Anthropic `signature`, Gemini `thoughtSignature`. */
  readonly signature?: string
  /** OpenAI Responses `encrypted_content`, Anthropic `redacted_thinking.data`. */
  readonly encrypted_content?: string
  /** Anthropic redacted thinking: `text` is empty and `encrypted_content` holds the data. */
  readonly redacted?: boolean
  /** OpenAI Responses reasoning item id (`rs_...`). */
  readonly id?: string
  /** The API that produced the item; others drop it, since they cannot verify it. */
  readonly origin?: ReasoningOrigin
}

export interface SystemMessage {
  readonly role: 'system' | 'developer'
  readonly content: string | readonly TextPart[]
}

export interface UserMessage {
  readonly role: 'user'
  readonly content: string | readonly ContentPart[]
}

export interface AssistantMessage {
  readonly role: 'assistant'
  readonly content: string | readonly TextPart[]
  readonly reasoning?: readonly ReasoningItem[]
  readonly tool_calls?: readonly ToolCall[]
}

export interface ToolMessage {
  readonly role: 'tool'
  readonly tool_call_id: string
  /** Gemini needs the function name with a result; dialects fill it from the matching call. */
  readonly name?: string
  readonly content: string | readonly ContentPart[]
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage
