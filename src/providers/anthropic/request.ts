// Canonical call -> Messages API request. System and developer messages become `system`; tool results
// become user turns; consecutive turns of one role are merged, as Anthropic expects.

import { GatewayError } from '../../domain/errors.ts'
import type {
  CanonicalCall,
  ReasoningConfig,
  ReasoningEffort,
  ResponseFormat,
  ToolChoice,
} from '../../domain/inference/call.ts'
import type { AssistantMessage, ContentPart, Message, SystemMessage, TextPart } from '../../domain/inference/message.ts'
import { messageText } from '../../domain/inference/message-text.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import type { UpstreamRequest } from '../provider-adapter.ts'
import type { AnthropicContentBlock, AnthropicMessage } from './wire.ts'

export const anthropicVersion = '2023-06-01'
/** Anthropic requires max_tokens; used when the call sets no limit. */
export const defaultMaxTokens = 4096

const effortBudgets: Readonly<Record<ReasoningEffort, number>> = { minimal: 1024, low: 2048, medium: 8192, high: 24576 }

export function buildAnthropicRequest(call: CanonicalCall): UpstreamRequest {
  const body = anthropicBody(call)
  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': anthropicVersion }
  return { method: 'POST', path: '/v1/messages', headers, body: Object.assign(body, call.extra) }
}

/** The Messages body without `extra` (Vertex sends the same body with its own version field). */
export function anthropicBody(call: CanonicalCall): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    model: call.model,
    max_tokens: call.max_output_tokens ?? defaultMaxTokens,
    system: toSystem(call.messages),
    messages: toMessages(call.messages),
    temperature: call.temperature,
    top_p: call.top_p,
    top_k: call.top_k,
    stop_sequences: call.stop,
    metadata: call.user === undefined ? undefined : { user_id: call.user },
    service_tier: call.service_tier,
    thinking: toThinking(call.reasoning),
    output_config: toOutputConfig(call.response_format),
    stream: call.stream ? true : undefined,
    ...toolFields(call),
  }
  return dropUndefined(fields)
}

/** System and developer texts joined, or text blocks when one carries a caching breakpoint. */
function toSystem(messages: readonly Message[]): string | AnthropicContentBlock[] | undefined {
  const system = messages.filter(
    (message): message is SystemMessage => message.role === 'system' || message.role === 'developer',
  )
  if (system.length === 0) return undefined
  const parts = system.flatMap((message): TextPart[] =>
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content],
  )
  if (parts.some((part) => part.cache_control !== undefined)) return parts.map(toBlock)
  return system.map((message) => messageText(message.content)).join('\n\n')
}

function toThinking(reasoning: ReasoningConfig | undefined): unknown {
  if (reasoning === undefined || reasoning.enabled === false) return undefined
  const budget = reasoning.max_tokens ?? (reasoning.effort === undefined ? undefined : effortBudgets[reasoning.effort])
  if (budget === undefined && reasoning.enabled !== true) return undefined
  return { type: 'enabled', budget_tokens: budget ?? effortBudgets.medium }
}

/** A JSON schema answer is Anthropic's structured output (`output_config.format`); other formats have no equivalent. */
function toOutputConfig(format: ResponseFormat | undefined): unknown {
  if (format?.type !== 'json_schema') return undefined
  return { format: { type: 'json_schema', schema: format.schema } }
}

function toolFields(call: CanonicalCall): Record<string, unknown> {
  if (call.tools === undefined || call.tools.length === 0) return {}
  const tools = call.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters ?? { type: 'object' },
    ...(tool.cache_control === undefined ? {} : { cache_control: tool.cache_control }),
  }))
  const choice = toToolChoice(call.tool_choice ?? 'auto')
  if (call.parallel_tool_calls === false && choice.type !== 'none') choice.disable_parallel_tool_use = true
  return call.tool_choice === undefined && call.parallel_tool_calls === undefined
    ? { tools }
    : { tools, tool_choice: choice }
}

function toToolChoice(choice: ToolChoice): Record<string, unknown> {
  if (typeof choice !== 'string') return { type: 'tool', name: choice.name }
  return { type: choice === 'required' ? 'any' : choice }
}

function toMessages(messages: readonly Message[]): AnthropicMessage[] {
  const turns: AnthropicMessage[] = []
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') continue
    const role = message.role === 'assistant' ? 'assistant' : 'user'
    const content =
      message.role === 'assistant'
        ? assistantBlocks(message)
        : message.role === 'tool'
          ? [toolResultBlock(message.tool_call_id, message.content)]
          : typeof message.content === 'string'
            ? [{ type: 'text' as const, text: message.content }]
            : message.content.map(toBlock)
    const last = turns.at(-1)
    if (last?.role === role) last.content.push(...content)
    else turns.push({ role, content })
  }
  return turns
}

function assistantBlocks(message: AssistantMessage): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = []
  for (const item of message.reasoning ?? []) {
    if (item.origin !== 'anthropic') continue
    if (item.redacted === true && item.encrypted_content !== undefined)
      blocks.push({ type: 'redacted_thinking', data: item.encrypted_content })
    else if (item.signature !== undefined)
      blocks.push({ type: 'thinking', thinking: item.text, signature: item.signature })
  }
  if (typeof message.content !== 'string' && message.content.some((part) => part.cache_control !== undefined))
    blocks.push(...message.content.map(toBlock))
  else {
    const text = messageText(message.content)
    if (text !== '') blocks.push({ type: 'text', text })
  }
  for (const call of message.tool_calls ?? [])
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseArguments(call.arguments) })
  return blocks
}

function parseArguments(text: string): unknown {
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new GatewayError('invalid_request', 'A tool call in the conversation has arguments that are not valid JSON')
  }
}

function toolResultBlock(toolUseId: string, content: string | readonly ContentPart[]): AnthropicContentBlock {
  return {
    type: 'tool_result',
    tool_use_id: toolUseId,
    content: typeof content === 'string' ? content : content.map(toBlock),
  }
}

function toBlock(part: ContentPart): AnthropicContentBlock {
  const cache = part.cache_control === undefined ? {} : { cache_control: part.cache_control }
  if (part.type === 'text') return { type: 'text', text: part.text, ...cache }
  if (part.source === 'base64')
    return { type: 'image', source: { type: 'base64', media_type: part.media_type, data: part.data }, ...cache }
  const data = /^data:([^;,]+);base64,(.*)$/s.exec(part.url)
  if (data?.[1] !== undefined && data[2] !== undefined)
    return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] }, ...cache }
  return { type: 'image', source: { type: 'url', url: part.url }, ...cache }
}
