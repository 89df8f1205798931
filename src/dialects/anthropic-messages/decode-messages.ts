// Anthropic `system` and `messages` -> canonical messages. A user turn's tool_result blocks become tool
// messages (named after the matching tool_use) ahead of the turn's other content; thinking blocks
// become reasoning of origin anthropic, unless their signature is a sealed token from another format.

import type { AssistantMessage, ContentPart, Message, ReasoningItem, ToolCall } from '../../domain/inference/message.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import { openSealedReasoning } from '../reasoning-seal.ts'
import type { ContentBlockInput, MessagesRequest } from './request-schema.ts'

type Block = ContentBlockInput

export function decodeMessages(body: Pick<MessagesRequest, 'system' | 'messages'>): Message[] {
  const system =
    body.system === undefined
      ? []
      : [
          {
            role: 'system' as const,
            content:
              typeof body.system === 'string' ? body.system : body.system.map((block) => block.text).join('\n\n'),
          },
        ]
  const callNames = new Map<string, string>()
  const turns = body.messages.flatMap((message): Message[] => {
    const blocks: readonly Block[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
    if (message.role === 'assistant') return [decodeAssistant(blocks, callNames)]
    return decodeUser(blocks, callNames)
  })
  return [...system, ...turns]
}

function decodeUser(blocks: readonly Block[], callNames: ReadonlyMap<string, string>): Message[] {
  const results: Message[] = []
  const parts: ContentPart[] = []
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      const content =
        block.content === undefined ? '' : typeof block.content === 'string' ? block.content : block.content.map(toPart)
      results.push(
        dropUndefined({
          role: 'tool' as const,
          tool_call_id: block.tool_use_id,
          name: callNames.get(block.tool_use_id),
          content,
        }) as Message,
      )
    } else if (block.type === 'text' || block.type === 'image') {
      parts.push(toPart(block))
    }
  }
  if (parts.length === 0) return results
  const only = parts[0]
  return [...results, { role: 'user', content: parts.length === 1 && only?.type === 'text' ? only.text : parts }]
}

function decodeAssistant(blocks: readonly Block[], callNames: Map<string, string>): AssistantMessage {
  let text = ''
  const reasoning: ReasoningItem[] = []
  const toolCalls: ToolCall[] = []
  for (const block of blocks) {
    if (block.type === 'text') text += block.text
    else if (block.type === 'thinking') reasoning.push(decodeThinking(block.thinking, block.signature))
    else if (block.type === 'redacted_thinking')
      reasoning.push({
        type: 'reasoning',
        text: '',
        encrypted_content: block.data,
        redacted: true,
        origin: 'anthropic',
      })
    else if (block.type === 'tool_use') {
      callNames.set(block.id, block.name)
      toolCalls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) })
    }
  }
  return dropUndefined({
    role: 'assistant' as const,
    content: text,
    reasoning: reasoning.length === 0 ? undefined : reasoning,
    tool_calls: toolCalls.length === 0 ? undefined : toolCalls,
  }) as AssistantMessage
}

function decodeThinking(thinking: string, signature: string): ReasoningItem {
  const sealed = openSealedReasoning(signature)
  if (sealed !== undefined) return { type: 'reasoning', text: thinking, ...sealed }
  return { type: 'reasoning', text: thinking, signature, origin: 'anthropic' }
}

function toPart(block: Extract<Block, { type: 'text' | 'image' }>): ContentPart {
  if (block.type === 'text') return { type: 'text', text: block.text }
  if (block.source.type === 'base64')
    return { type: 'image', source: 'base64', media_type: block.source.media_type, data: block.source.data }
  return { type: 'image', source: 'url', url: block.source.url }
}
