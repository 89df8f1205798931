// Azure's Chat Completions stream opens with a chunk that carries only `prompt_filter_results` (empty
// id, model and choices). The OpenAI parser would take that empty id as the message's; the chunk is
// skipped so the message starts at the first chunk with Azure's real id and model.
import { ChatStreamParser } from '../openai-chat/stream.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { StreamParser, UpstreamFrame } from '../provider-adapter.ts'

export class AzureChatStreamParser implements StreamParser {
  private readonly inner = new ChatStreamParser()
  private opened = false

  push(frame: UpstreamFrame): StreamEvent[] {
    if (!this.opened) {
      if (isPromptFilterChunk(frame.data)) return []
      this.opened = true
    }
    return this.inner.push(frame)
  }

  end(): StreamEvent[] {
    return this.inner.end()
  }
}

function isPromptFilterChunk(data: string): boolean {
  if (!data.includes('"prompt_filter_results"')) return false
  try {
    const chunk = JSON.parse(data) as { id?: unknown; choices?: unknown }
    return (chunk.id === '' || chunk.id === undefined) && Array.isArray(chunk.choices) && chunk.choices.length === 0
  } catch {
    return false
  }
}
