// One adapter per provider API. Adding an API to ProviderApi fails to compile until it has a row here.
// An OpenAI-compatible server is configured as `api: openai-chat` with its own base_url: no code.

import type { ProviderAdapter, ProviderApi } from './provider-adapter.ts'
import { anthropicAdapter } from './anthropic/adapter.ts'
import { geminiAdapter } from './gemini/adapter.ts'
import { openaiChatAdapter } from './openai-chat/adapter.ts'
import { openaiResponsesAdapter } from './openai-responses/adapter.ts'

export const providerAdapters: Readonly<Record<ProviderApi, ProviderAdapter>> = {
  'openai-chat': openaiChatAdapter,
  'openai-responses': openaiResponsesAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
}
