// Canonical call -> Chat Completions request. Also the request of every OpenAI-compatible server:
// only the provider's base_url differs.

import type { CanonicalCall, ResponseFormat, ToolChoice } from '../../domain/inference/call.ts'
import type { ContentPart, Message } from '../../domain/inference/message.ts'
import { messageText } from '../../domain/inference/message-text.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import type { UpstreamRequest } from '../provider-adapter.ts'
import type { ChatContentPart, ChatMessage } from './wire.ts'

export function buildChatRequest(call: CanonicalCall): UpstreamRequest {
  return { method: 'POST', path: '/chat/completions', headers: jsonHeaders, body: chatBody(call) }
}

/** The Chat Completions body, `extra` included (Azure sends it to its deployment URL). */
export function chatBody(call: CanonicalCall): Record<string, unknown> {
  const body: Record<string, unknown> = Object.assign(
    { model: call.model, messages: call.messages.map(toChatMessage) },
    samplingFields(call),
    toolFields(call),
  )
  if (call.response_format !== undefined) body.response_format = toResponseFormat(call.response_format)
  if (call.reasoning?.effort !== undefined && call.reasoning.enabled !== false)
    body.reasoning_effort = call.reasoning.effort
  if (call.stream) {
    body.stream = true
    body.stream_options = { include_usage: true }
  }
  return Object.assign(body, call.extra)
}

/** The headers of every OpenAI-shaped request; the authorizer adds the key. */
export const jsonHeaders: Readonly<Record<string, string>> = { 'content-type': 'application/json' }

function samplingFields(call: CanonicalCall): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    max_completion_tokens: call.max_output_tokens,
    temperature: call.temperature,
    top_p: call.top_p,
    frequency_penalty: call.frequency_penalty,
    presence_penalty: call.presence_penalty,
    seed: call.seed,
    stop: call.stop,
    logprobs: call.logprobs,
    top_logprobs: call.top_logprobs,
    user: call.user,
    service_tier: call.service_tier,
  }
  return dropUndefined(fields)
}

function toolFields(call: CanonicalCall): Record<string, unknown> {
  if (call.tools === undefined || call.tools.length === 0) return {}
  const fields: Record<string, unknown> = {
    tools: call.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters, strict: tool.strict },
    })),
  }
  if (call.tool_choice !== undefined) fields.tool_choice = toToolChoice(call.tool_choice)
  if (call.parallel_tool_calls !== undefined) fields.parallel_tool_calls = call.parallel_tool_calls
  return fields
}

function toToolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } }
}

function toResponseFormat(format: ResponseFormat): unknown {
  if (format.type !== 'json_schema') return { type: format.type }
  const { type, ...schema } = format
  return { type, json_schema: schema }
}

function toChatMessage(message: Message): ChatMessage {
  switch (message.role) {
    case 'system':
    case 'developer':
      // Compatible servers rarely know `developer`; OpenAI treats `system` as developer on reasoning models.
      return { role: 'system', content: messageText(message.content) }
    case 'user':
      return {
        role: 'user',
        content: typeof message.content === 'string' ? message.content : message.content.map(toChatPart),
      }
    case 'assistant': {
      const text = messageText(message.content)
      const calls = message.tool_calls ?? []
      if (calls.length === 0) return { role: 'assistant', content: text }
      return {
        role: 'assistant',
        content: text === '' ? null : text,
        tool_calls: calls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      }
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: messageText(message.content) }
  }
}

function toChatPart(part: ContentPart): ChatContentPart {
  if (part.type === 'text') return { type: 'text', text: part.text }
  const url = part.source === 'url' ? part.url : `data:${part.media_type};base64,${part.data}`
  const detail = part.source === 'url' ? part.detail : undefined
  return { type: 'image_url', image_url: detail === undefined ? { url } : { url, detail } }
}
