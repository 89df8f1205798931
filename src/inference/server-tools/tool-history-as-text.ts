// The conversation for the loop's final, tool-less turn: tool calls and tool results become plain text,
// because some upstreams (Anthropic) refuse tool_use / tool_result blocks in a request without tools.
// An assistant turn keeps its text and lists its calls; the results that follow it become one user turn.
import type { Message } from '../../domain/inference/message.ts'
import { messageText } from '../../domain/inference/message-text.ts'

export function toolHistoryAsText(messages: readonly Message[]): Message[] {
  const rewritten: Message[] = []
  for (const message of messages) {
    if (message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0) {
      const calls = message.tool_calls!.map((call) => `[called ${call.name} with ${call.arguments || '{}'}]`).join('\n')
      const text = messageText(message.content)
      rewritten.push({ role: 'assistant', content: text === '' ? calls : `${text}\n${calls}` })
    } else if (message.role === 'tool') {
      const result = `[result of ${message.name ?? message.tool_call_id}]\n${messageText(message.content)}`
      const previous = rewritten.at(-1)
      if (
        previous?.role === 'user' &&
        typeof previous.content === 'string' &&
        previous.content.startsWith('[result of ')
      ) {
        rewritten[rewritten.length - 1] = { role: 'user', content: `${previous.content}\n\n${result}` }
      } else {
        rewritten.push({ role: 'user', content: result })
      }
    } else {
      rewritten.push(message)
    }
  }
  return rewritten
}
