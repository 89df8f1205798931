// Anthropic `system` and `messages` -> canonical messages. A user turn's tool_result blocks become tool
// messages (named after the matching tool_use) ahead of the turn's other content; thinking blocks
// become reasoning of origin anthropic, unless their signature is a sealed token from another format.

import type {
  AssistantMessage,
  ContentPart,
  Message,
  ReasoningItem,
  TextPart,
  ToolCall,
} from '../../domain/inference/message.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import { hasCacheControl, withCacheControl } from '../decode-cache-control.ts'
import { openSealedReasoning } from '../reasoning-seal.ts'
import type { ContentBlockInput, MessagesRequest } from './request-schema.ts'

type Block = ContentBlockInput

export function decodeMessages(body: Pick<MessagesRequest, 'system' | 'messages'>): Message[] {
  const system = body.system === undefined ? [] : [{ role: 'system' as const, content: decodeSystem(body.system) }]
  const callNames = new Map<string, string>()
  const turns = body.messages.flatMap((message): Message[] => {
    const blocks: readonly Block[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
    if (message.role === 'assistant') return [decodeAssistant(blocks, callNames)]
    return decodeUser(blocks, callNames)
  })
  return [...system, ...turns]
}

/** System blocks join into one text, unless one is a caching breakpoint: then they stay blocks. */
function decodeSystem(system: NonNullable<MessagesRequest['system']>): string | TextPart[] {
  if (typeof system === 'string') return system
  if (!hasCacheControl(system)) return system.map((block) => block.text).join('\n\n')
  return system.map((block) => ({ type: 'text', text: block.text, ...withCacheControl(block.cache_control) }))
}

function decodeUser(blocks: readonly Block[], callNames: ReadonlyMap<string, string>): Message[] {
  const results: Message[] = []
  const parts: ContentPart[] = []
  for (const block of blocks) {
    if (block.type === 'tool_result') {
      const content = toolResultContent(block)
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
  const isPlainText = parts.length === 1 && only?.type === 'text' && only.cache_control === undefined
  return [...results, { role: 'user', content: isPlainText ? only.text : parts }]
}

/** A tool result's content; a breakpoint on the tool_result block goes on its last part. */
function toolResultContent(block: Extract<Block, { type: 'tool_result' }>): string | ContentPart[] {
  const given = block.content ?? ''
  if (block.cache_control == null) return typeof given === 'string' ? given : given.map(toPart)
  const parts: ContentPart[] = typeof given === 'string' ? [{ type: 'text', text: given }] : given.map(toPart)
  const last = parts.pop()
  return last === undefined ? parts : [...parts, { ...last, ...withCacheControl(block.cache_control) }]
}

function decodeAssistant(blocks: readonly Block[], callNames: Map<string, string>): AssistantMessage {
  const texts: TextPart[] = []
  const reasoning: ReasoningItem[] = []
  const toolCalls: ToolCall[] = []
  for (const block of blocks) {
    if (block.type === 'text') texts.push({ type: 'text', text: block.text, ...withCacheControl(block.cache_control) })
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
    content: hasCacheControl(texts) ? texts : texts.map((part) => part.text).join(''),
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
  const cache = withCacheControl(block.cache_control)
  if (block.type === 'text') return { type: 'text', text: block.text, ...cache }
  if (block.source.type === 'base64')
    return { type: 'image', source: 'base64', media_type: block.source.media_type, data: block.source.data, ...cache }
  return { type: 'image', source: 'url', url: block.source.url, ...cache }
}
