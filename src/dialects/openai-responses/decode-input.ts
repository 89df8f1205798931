// Responses `input` (a string or items) -> canonical messages. Consecutive assistant-side items
// (reasoning, assistant messages, function calls) form one assistant turn; `function_call_output`
// items become tool messages named after their call.

import { GatewayError } from '../../domain/errors.ts'
import type { AssistantMessage, ContentPart, Message, ReasoningItem, ToolCall } from '../../domain/inference/message.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import { openSealedReasoning } from '../reasoning-seal.ts'
import type { ResponsesContentPart, ResponsesInputItem } from './request-schema.ts'

/** Summary parts of one reasoning item are joined with a blank line (as the Responses adapter does). */
export const summarySeparator = '\n\n'

interface AssistantDraft {
  text: string
  reasoning: ReasoningItem[]
  tool_calls: ToolCall[]
}

export function decodeInput(input: string | readonly unknown[]): Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }]
  const messages: Message[] = []
  const callNames = new Map<string, string>()
  let draft: AssistantDraft | undefined
  const flush = (): void => {
    if (draft !== undefined) messages.push(toAssistantMessage(draft))
    draft = undefined
  }
  ;(input as readonly ResponsesInputItem[]).forEach((item, index) => {
    const field = `input[${index}]`
    if (isServerToolItem(item)) return
    if (item.type === 'function_call_output') {
      flush()
      messages.push(
        dropUndefined({
          role: 'tool' as const,
          tool_call_id: item.call_id,
          name: callNames.get(item.call_id),
          content: decodeContent(item.output, `${field}.output`),
        }) as Message,
      )
      return
    }
    if (item.type === 'message' || item.type === undefined) {
      if (item.role !== 'assistant') {
        flush()
        messages.push(decodeMessage(item.role, item.content, field))
        return
      }
      draft ??= { text: '', reasoning: [], tool_calls: [] }
      draft.text += textOf(item.content, `${field}.content`)
      return
    }
    draft ??= { text: '', reasoning: [], tool_calls: [] }
    if (item.type === 'function_call') {
      callNames.set(item.call_id, item.name)
      draft.tool_calls.push({ id: item.call_id, name: item.name, arguments: item.arguments })
    } else if (item.type === 'reasoning') {
      draft.reasoning.push(decodeReasoningItem(item))
    }
  })
  flush()
  return messages
}

function isServerToolItem(item: ResponsesInputItem): item is { readonly type: `openrouter:${string}` } {
  return typeof item.type === 'string' && item.type.startsWith('openrouter:')
}

function toAssistantMessage(draft: AssistantDraft): AssistantMessage {
  return dropUndefined({
    role: 'assistant' as const,
    content: draft.text,
    reasoning: draft.reasoning.length === 0 ? undefined : draft.reasoning,
    tool_calls: draft.tool_calls.length === 0 ? undefined : draft.tool_calls,
  }) as AssistantMessage
}

function decodeMessage(
  role: 'user' | 'system' | 'developer',
  content: string | readonly ResponsesContentPart[],
  field: string,
): Message {
  if (role === 'user') return { role, content: decodeContent(content, `${field}.content`) }
  return { role, content: textOf(content, `${field}.content`) }
}

type ReasoningInput = Extract<ResponsesInputItem, { type: 'reasoning' }>

export function decodeReasoningItem(item: ReasoningInput): ReasoningItem {
  const text = [...(item.summary ?? []), ...(item.content ?? [])].map((part) => part.text).join(summarySeparator)
  const encrypted = item.encrypted_content ?? undefined
  const sealed = encrypted === undefined ? undefined : openSealedReasoning(encrypted)
  if (sealed !== undefined) return { type: 'reasoning', text, ...sealed }
  return dropUndefined({
    type: 'reasoning' as const,
    text,
    id: item.id,
    encrypted_content: encrypted,
    origin: 'openai-responses' as const,
  }) as ReasoningItem
}

function decodeContent(content: string | readonly ResponsesContentPart[], field: string): string | ContentPart[] {
  if (typeof content === 'string') return content
  return content.map((part, index) => decodePart(part, `${field}[${index}]`))
}

function decodePart(part: ResponsesContentPart, field: string): ContentPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: part.text }
    case 'refusal':
      return { type: 'text', text: part.refusal }
    case 'input_image':
      if (typeof part.image_url !== 'string')
        throw new GatewayError(
          'invalid_request',
          `${field}.image_url: is required (file ids are not supported; send the image as a URL or data: URL)`,
        )
      return dropUndefined({
        type: 'image' as const,
        source: 'url' as const,
        url: part.image_url,
        detail: part.detail,
      }) as ContentPart
    case 'input_file':
      throw new GatewayError('invalid_request', `${field}: input_file parts are not supported`)
  }
}

/** Text-only content (system, developer and assistant messages). */
function textOf(content: string | readonly ResponsesContentPart[], field: string): string {
  if (typeof content === 'string') return content
  return content
    .map((part, index) => {
      const decoded = decodePart(part, `${field}[${index}]`)
      if (decoded.type !== 'text')
        throw new GatewayError('invalid_request', `${field}[${index}]: only text parts are allowed in this message`)
      return decoded.text
    })
    .join('')
}
