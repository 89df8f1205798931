import type { ProviderAdapter } from '../provider-adapter.ts'
import { classifyChatError } from './errors.ts'
import { buildChatRequest } from './request.ts'
import { parseChatResponse } from './response.ts'
import { ChatStreamParser } from './stream.ts'

/** OpenAI Chat Completions, and every OpenAI-compatible server (same adapter, another base_url). */
export const openaiChatAdapter: ProviderAdapter = {
  api: 'openai-chat',
  buildRequest: buildChatRequest,
  parseResponse: parseChatResponse,
  createStreamParser: () => new ChatStreamParser(),
  classifyError: classifyChatError,
}
