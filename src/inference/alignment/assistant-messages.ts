// The assistant messages of an answer, as the text the evaluator reads: what the message says and every
// tool call it makes (`tool call <name>: <arguments>`). Chat Completions has one message per choice; a
// Responses or Messages answer is one message.
import type { DialectName } from '../../dialects/dialect.ts'

function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    : []
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? '')
}

function toolCall(name: unknown, args: unknown): string {
  return `tool call ${text(name)}: ${text(args)}`
}

function joined(parts: readonly string[]): string {
  return parts.filter((part) => part !== '').join('\n')
}

function chatMessages(body: Record<string, unknown>): string[] {
  return records(body.choices).map((choice) => {
    const message = typeof choice.message === 'object' && choice.message !== null ? choice.message : {}
    const { content, refusal, tool_calls } = message as Record<string, unknown>
    const calls = records(tool_calls).map((call) => {
      const fn = (call.function ?? {}) as Record<string, unknown>
      return toolCall(fn.name, fn.arguments)
    })
    const contentText =
      typeof content === 'string' || content === null || content === undefined ? (content ?? '') : text(content)
    return joined([contentText, typeof refusal === 'string' ? refusal : '', ...calls])
  })
}

function responsesMessages(body: Record<string, unknown>): string[] {
  const parts = records(body.output).flatMap((item) => {
    if (item.type === 'message')
      return records(item.content).map((part) => (typeof part.text === 'string' ? part.text : text(part.refusal)))
    if (item.type === 'function_call') return [toolCall(item.name, item.arguments)]
    return []
  })
  return [joined(parts)]
}

function anthropicMessages(body: Record<string, unknown>): string[] {
  const parts = records(body.content).flatMap((block) => {
    if (block.type === 'text') return [text(block.text)]
    if (block.type === 'tool_use') return [toolCall(block.name, block.input)]
    return []
  })
  return [joined(parts)]
}

const byDialect: Readonly<Record<DialectName, (body: Record<string, unknown>) => string[]>> = {
  'openai-chat': chatMessages,
  'openai-responses': responsesMessages,
  'anthropic-messages': anthropicMessages,
}

export function assistantMessages(dialect: DialectName, body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return []
  return byDialect[dialect](body as Record<string, unknown>)
}
