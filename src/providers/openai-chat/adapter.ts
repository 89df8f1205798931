import type { ProviderAdapter } from '../provider-adapter.ts'
import { headerAuthorizer } from '../static-authorizer.ts'
import { classifyChatError } from './errors.ts'
import { buildChatRequest } from './request.ts'
import { parseChatResponse } from './response.ts'
import { ChatStreamParser } from './stream.ts'

/** OpenAI Chat Completions, and every OpenAI-compatible server (same adapter, another base_url). */
export const openaiChatAdapter: ProviderAdapter = {
  api: 'openai-chat',
  framing: 'sse',
  buildRequest: buildChatRequest,
  createAuthorizer: (settings) =>
    headerAuthorizer('authorization', settings.apiKey === null ? null : `Bearer ${settings.apiKey}`),
  parseResponse: parseChatResponse,
  createStreamParser: () => new ChatStreamParser(),
  classifyError: classifyChatError,
}
