// Canonical call -> Responses API request. The gateway is stateless: `store: false`, and reasoning is
// carried between turns as encrypted content.

import type { CanonicalCall, ToolChoice } from '../../domain/inference/call.ts'
import type { AssistantMessage, ContentPart, Message } from '../../domain/inference/message.ts'
import { messageText } from '../../domain/inference/message-text.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import { jsonHeaders } from '../openai-chat/request.ts'
import type { UpstreamRequest } from '../provider-adapter.ts'
import { summarySeparator } from './response.ts'
import type { ResponsesInputContent, ResponsesInputItem } from './wire.ts'

export function buildResponsesRequest(call: CanonicalCall): UpstreamRequest {
  return { method: 'POST', path: '/responses', headers: jsonHeaders, body: responsesBody(call) }
}

/** The Responses body, `extra` included (Azure sends it to its own URL). */
export function responsesBody(call: CanonicalCall): Record<string, unknown> {
  const reasoningOn = call.reasoning !== undefined && call.reasoning.enabled !== false
  const fields: Record<string, unknown> = {
    model: call.model,
    input: call.messages.flatMap(toInputItems),
    max_output_tokens: call.max_output_tokens,
    temperature: call.temperature,
    top_p: call.top_p,
    top_logprobs: call.top_logprobs,
    user: call.user,
    service_tier: call.service_tier,
    text: call.response_format === undefined ? undefined : { format: call.response_format },
    reasoning: reasoningOn ? { effort: call.reasoning?.effort, summary: call.reasoning?.summary } : undefined,
    include: reasoningOn ? ['reasoning.encrypted_content'] : undefined,
    store: false,
    stream: call.stream ? true : undefined,
    ...toolFields(call),
  }
  return Object.assign(dropUndefined(fields), call.extra)
}

function toolFields(call: CanonicalCall): Record<string, unknown> {
  if (call.tools === undefined || call.tools.length === 0) return {}
  const fields: Record<string, unknown> = {
    tools: call.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters ?? { type: 'object' },
      strict: tool.strict ?? false,
    })),
  }
  if (call.tool_choice !== undefined) fields.tool_choice = toToolChoice(call.tool_choice)
  if (call.parallel_tool_calls !== undefined) fields.parallel_tool_calls = call.parallel_tool_calls
  return fields
}

function toToolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.name }
}

function toInputItems(message: Message): ResponsesInputItem[] {
  switch (message.role) {
    case 'system':
    case 'developer':
      return [{ type: 'message', role: message.role, content: messageText(message.content) }]
    case 'user':
      return [
        {
          type: 'message',
          role: 'user',
          content: typeof message.content === 'string' ? message.content : message.content.map(toInputContent),
        },
      ]
    case 'assistant':
      return assistantItems(message)
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.tool_call_id, output: messageText(message.content) }]
  }
}

function assistantItems(message: AssistantMessage): ResponsesInputItem[] {
  const items: ResponsesInputItem[] = []
  for (const item of message.reasoning ?? []) {
    if (item.origin !== 'openai-responses' || item.id === undefined) continue
    const summary =
      item.text === '' ? [] : item.text.split(summarySeparator).map((text) => ({ type: 'summary_text' as const, text }))
    items.push({
      type: 'reasoning',
      id: item.id,
      summary,
      ...(item.encrypted_content === undefined ? {} : { encrypted_content: item.encrypted_content }),
    })
  }
  const text = messageText(message.content)
  if (text !== '') items.push({ type: 'message', role: 'assistant', content: text })
  for (const call of message.tool_calls ?? [])
    items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments })
  return items
}

function toInputContent(part: ContentPart): ResponsesInputContent {
  if (part.type === 'text') return { type: 'input_text', text: part.text }
  if (part.source === 'base64')
    return { type: 'input_image', image_url: `data:${part.media_type};base64,${part.data}`, detail: 'auto' }
  return { type: 'input_image', image_url: part.url, detail: part.detail ?? 'auto' }
}
