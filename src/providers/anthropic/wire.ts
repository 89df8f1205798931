// Anthropic Messages API wire types (the subset Switchyard reads and writes).

import type { CacheControl } from '../../domain/inference/message.ts'

export type AnthropicImageSource = { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string }

export type AnthropicContentBlock =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | { type: 'image'; source: AnthropicImageSource; cache_control?: CacheControl }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string | AnthropicContentBlock[] }

export interface AnthropicMessage {
  role: 'user' | 'assistant'
  content: AnthropicContentBlock[]
}

export interface AnthropicUsage {
  input_tokens?: number | null
  output_tokens?: number | null
  cache_creation_input_tokens?: number | null
  cache_read_input_tokens?: number | null
}

export interface AnthropicResponse {
  id: string
  type: 'message'
  role: 'assistant'
  model: string
  content: AnthropicContentBlock[]
  stop_reason: string | null
  stop_sequence: string | null
  usage: AnthropicUsage
}

export interface AnthropicErrorBody {
  type?: 'error'
  error?: { type?: string; message?: string }
}

export type AnthropicStreamDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'citations_delta' }

export type AnthropicStreamEvent =
  | { type: 'message_start'; message: Omit<AnthropicResponse, 'content'> }
  | { type: 'content_block_start'; index: number; content_block: AnthropicContentBlock | { type: string } }
  | { type: 'content_block_delta'; index: number; delta: AnthropicStreamDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta'
      delta: { stop_reason: string | null; stop_sequence?: string | null }
      usage?: AnthropicUsage
    }
  | { type: 'message_stop' }
  | { type: 'ping' }
  | ({ type: 'error' } & AnthropicErrorBody)
