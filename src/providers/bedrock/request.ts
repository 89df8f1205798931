// Canonical call -> Bedrock Converse / ConverseStream request (`POST /model/{id}/converse[-stream]`).
// System messages become `system`; tool results are user turns of `toolResult` blocks; turns of one
// role are merged (Converse wants them alternating); images go as bytes; Claude's reasoning (signed,
// origin `anthropic`) is sent back as `reasoningContent`, and a thinking budget as Claude's own field.
import { GatewayError } from '../../domain/errors.ts'
import type { CanonicalCall, ReasoningConfig, ReasoningEffort, ToolChoice } from '../../domain/inference/call.ts'
import type { ContentPart, Message } from '../../domain/inference/message.ts'
import { messageText } from '../../domain/inference/message-text.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import type { UpstreamRequest } from '../provider-adapter.ts'
import type { ConverseBlock, ConverseMessage } from './wire.ts'

const effortBudgets: Readonly<Record<ReasoningEffort, number>> = { minimal: 1024, low: 2048, medium: 8192, high: 24576 }
const headers: Readonly<Record<string, string>> = { 'content-type': 'application/json' }

export function buildConverseRequest(call: CanonicalCall): UpstreamRequest {
  const system = call.messages.flatMap((message) =>
    message.role === 'system' || message.role === 'developer' ? [{ text: messageText(message.content) }] : [],
  )
  const fields: Record<string, unknown> = {
    system: system.length === 0 ? undefined : system,
    messages: toMessages(call.messages),
    inferenceConfig: emptyToUndefined(
      dropUndefined({
        maxTokens: call.max_output_tokens,
        temperature: call.temperature,
        topP: call.top_p,
        stopSequences: call.stop,
      }),
    ),
    toolConfig: toolConfig(call),
    additionalModelRequestFields: thinking(call.reasoning),
  }
  const path = `/model/${encodeURIComponent(call.model)}/${call.stream ? 'converse-stream' : 'converse'}`
  return { method: 'POST', path, headers, body: Object.assign(dropUndefined(fields), call.extra) }
}

function emptyToUndefined(value: Record<string, unknown>): Record<string, unknown> | undefined {
  return Object.keys(value).length === 0 ? undefined : value
}

function thinking(reasoning: ReasoningConfig | undefined): Record<string, unknown> | undefined {
  if (reasoning === undefined || reasoning.enabled === false) return undefined
  const budget = reasoning.max_tokens ?? (reasoning.effort === undefined ? undefined : effortBudgets[reasoning.effort])
  return budget === undefined ? undefined : { thinking: { type: 'enabled', budget_tokens: budget } }
}

function toolConfig(call: CanonicalCall): Record<string, unknown> | undefined {
  if (call.tools === undefined || call.tools.length === 0) return undefined
  const tools = call.tools.map((tool) => ({
    toolSpec: dropUndefined({
      name: tool.name,
      description: tool.description,
      inputSchema: { json: tool.parameters ?? { type: 'object', properties: {} } },
    }),
  }))
  const choice = toolChoice(call.tool_choice)
  return choice === undefined ? { tools } : { tools, toolChoice: choice }
}

function toolChoice(choice: ToolChoice | undefined): Record<string, unknown> | undefined {
  if (choice === undefined || choice === 'none') return undefined
  if (choice === 'auto') return { auto: {} }
  if (choice === 'required') return { any: {} }
  return { tool: { name: choice.name } }
}

function toMessages(messages: readonly Message[]): ConverseMessage[] {
  const turns: ConverseMessage[] = []
  for (const message of messages) {
    const content = blocksOf(message)
    if (content === null) continue
    const role = message.role === 'assistant' ? 'assistant' : 'user'
    const previous = turns.at(-1)
    if (previous !== undefined && previous.role === role) previous.content.push(...content)
    else turns.push({ role, content })
  }
  return turns
}

/** The blocks of one turn; null for system messages (sent as `system`). */
function blocksOf(message: Message): ConverseBlock[] | null {
  if (message.role === 'system' || message.role === 'developer') return null
  if (message.role === 'tool')
    return [{ toolResult: { toolUseId: message.tool_call_id, content: toolResultContent(message.content) } }]
  if (message.role === 'user') return partsOf(message.content)
  if (message.role !== 'assistant') return null
  const blocks: ConverseBlock[] = []
  for (const item of message.reasoning ?? []) {
    if (item.origin !== 'anthropic') continue
    if (item.redacted === true && item.encrypted_content !== undefined)
      blocks.push({ reasoningContent: { redactedContent: item.encrypted_content } })
    else if (item.signature !== undefined)
      blocks.push({ reasoningContent: { reasoningText: { text: item.text, signature: item.signature } } })
  }
  blocks.push(...partsOf(message.content))
  for (const call of message.tool_calls ?? [])
    blocks.push({ toolUse: { toolUseId: call.id, name: call.name, input: parseArguments(call.arguments) } })
  return blocks
}

function partsOf(content: string | readonly ContentPart[]): ConverseBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }]
  return content.map(toBlock)
}

function toolResultContent(content: string | readonly ContentPart[]): ConverseBlock[] {
  const blocks = partsOf(content)
  return blocks.length === 0 ? [{ text: '' }] : blocks
}

function toBlock(part: ContentPart): ConverseBlock {
  if (part.type === 'text') return { text: part.text }
  const image = part.source === 'base64' ? { mediaType: part.media_type, data: part.data } : dataUrl(part.url)
  const format = image.mediaType.replace(/^image\//, '').replace('jpg', 'jpeg')
  return { image: { format, source: { bytes: image.data } } }
}

function dataUrl(url: string): { mediaType: string; data: string } {
  const match = /^data:(image\/[a-z+.-]+);base64,(.*)$/is.exec(url)
  if (match === null)
    throw new GatewayError(
      'invalid_request',
      'Invalid request parameters: Bedrock takes images as base64 data (a data: URL), not by http(s) URL',
    )
  return { mediaType: match[1]!.toLowerCase(), data: match[2]! }
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text === '' ? '{}' : text) as unknown
  } catch {
    throw new GatewayError('invalid_request', 'Invalid request parameters: tool call arguments are not valid JSON')
  }
}
