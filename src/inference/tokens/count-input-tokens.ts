// The input tokens of a call as OpenAI's chat format counts them: each message costs 3 tokens of framing
// plus its role and content, the reply is primed with 3 more, and each tool definition costs its JSON
// text. Images cannot be counted without decoding them: an image costs 85 tokens at `detail: "low"` and
// 765 otherwise (OpenAI's price of a 1024x1024 image in high detail). Exact for OpenAI models on text;
// an approximation for the others (see load-tokenizer.ts).
import type { CanonicalCall, FunctionTool } from '../../domain/inference/call.ts'
import type { ContentPart, Message } from '../../domain/inference/message.ts'
import type { Tokenizer } from './load-tokenizer.ts'

const PER_MESSAGE = 3
const REPLY_PRIMING = 3
const PER_TOOL_CALL = 3
const LOW_DETAIL_IMAGE = 85
const IMAGE = 765

export function countInputTokens(call: Pick<CanonicalCall, 'messages' | 'tools'>, tokenizer: Tokenizer): number {
  let total = REPLY_PRIMING
  for (const message of call.messages) total += PER_MESSAGE + countMessage(message, tokenizer)
  for (const tool of call.tools ?? []) total += countTool(tool, tokenizer)
  return total
}

function countMessage(message: Message, tokenizer: Tokenizer): number {
  let total = tokenizer.count(message.role) + countContent(message.content, tokenizer)
  if (message.role === 'assistant') {
    for (const item of message.reasoning ?? []) total += tokenizer.count(item.text)
    for (const toolCall of message.tool_calls ?? [])
      total += PER_TOOL_CALL + tokenizer.count(toolCall.name) + tokenizer.count(toolCall.arguments)
  }
  if (message.role === 'tool') total += tokenizer.count(message.tool_call_id)
  return total
}

function countContent(content: string | readonly ContentPart[], tokenizer: Tokenizer): number {
  if (typeof content === 'string') return tokenizer.count(content)
  let total = 0
  for (const part of content) {
    if (part.type === 'text') total += tokenizer.count(part.text)
    else total += part.source === 'url' && part.detail === 'low' ? LOW_DETAIL_IMAGE : IMAGE
  }
  return total
}

function countTool(tool: FunctionTool, tokenizer: Tokenizer): number {
  const definition = { name: tool.name, description: tool.description, parameters: tool.parameters }
  return tokenizer.count(JSON.stringify(definition))
}
