// Chat Completions `messages` -> canonical messages. Tool messages are named after the assistant call
// they answer; assistant reasoning comes from `reasoning_details` when given, else from `reasoning`.

import type { AssistantMessage, ContentPart, Message, ReasoningItem, TextPart } from '../../domain/inference/message.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import { hasCacheControl, withCacheControl, type GivenCacheControl } from '../decode-cache-control.ts'
import { decodeReasoningDetails } from './reasoning-details.ts'
import type { ChatMessageInput } from './request-schema.ts'

type AssistantInput = Extract<ChatMessageInput, { role: 'assistant' }>
type PartInput =
  | { type: 'text'; text: string; cache_control?: GivenCacheControl }
  | { type: 'refusal'; refusal: string }
  | {
      type: 'image_url'
      image_url: { url: string; detail?: 'auto' | 'low' | 'high' }
      cache_control?: GivenCacheControl
    }

export function decodeMessages(messages: readonly ChatMessageInput[]): Message[] {
  const callNames = new Map<string, string>()
  return messages.map((message): Message => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return { role: message.role, content: textOrParts(message.content) }
      case 'user':
        return { role: 'user', content: decodeContent(message.content) }
      case 'assistant':
        for (const call of message.tool_calls ?? []) callNames.set(call.id, call.function.name)
        return decodeAssistant(message)
      case 'tool':
        return dropUndefined({
          role: 'tool' as const,
          tool_call_id: message.tool_call_id,
          name: callNames.get(message.tool_call_id),
          content: decodeContent(message.content),
        }) as Message
    }
  })
}

function decodeAssistant(message: AssistantInput): AssistantMessage {
  const toolCalls = (message.tool_calls ?? []).map((call) => ({
    id: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
  }))
  return dropUndefined({
    role: 'assistant' as const,
    content: message.content == null ? '' : textOrParts(message.content),
    reasoning: emptyToUndefined(decodeReasoning(message)),
    tool_calls: emptyToUndefined(toolCalls),
  }) as AssistantMessage
}

function decodeReasoning(message: AssistantInput): ReasoningItem[] {
  if (message.reasoning_details != null && message.reasoning_details.length > 0)
    return decodeReasoningDetails(message.reasoning_details)
  if (message.reasoning == null || message.reasoning === '') return []
  return [{ type: 'reasoning', text: message.reasoning, origin: 'openai-chat' }]
}

function emptyToUndefined<T>(items: T[]): T[] | undefined {
  return items.length === 0 ? undefined : items
}

function decodeContent(content: string | readonly PartInput[]): string | ContentPart[] {
  if (typeof content === 'string') return content
  return content.map(decodePart)
}

function decodePart(part: PartInput): ContentPart {
  if (part.type === 'text') return { type: 'text', text: part.text, ...withCacheControl(part.cache_control) }
  if (part.type === 'refusal') return { type: 'text', text: part.refusal }
  return dropUndefined({
    type: 'image' as const,
    source: 'url' as const,
    url: part.image_url.url,
    detail: part.image_url.detail,
    cache_control: withCacheControl(part.cache_control).cache_control,
  }) as ContentPart
}

/** Text-only content joins into one text, unless a part is a caching breakpoint: then it stays parts. */
function textOrParts(content: string | readonly PartInput[]): string | TextPart[] {
  if (typeof content === 'string' || !hasCacheControl(content)) return textOf(content)
  return content.flatMap((part): TextPart[] =>
    part.type === 'text'
      ? [{ type: 'text', text: part.text, ...withCacheControl(part.cache_control) }]
      : part.type === 'refusal'
        ? [{ type: 'text', text: part.refusal }]
        : [],
  )
}

function textOf(content: string | readonly PartInput[]): string {
  if (typeof content === 'string') return content
  return content
    .map((part) => (part.type === 'text' ? part.text : part.type === 'refusal' ? part.refusal : ''))
    .join('')
}
