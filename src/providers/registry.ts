// One adapter per provider API. Adding an API to ProviderApi fails to compile until it has a row here.
// An OpenAI-compatible server is configured as `api: openai-chat` with its own base_url: no code.
// A row is an adapter, or a choice among adapters by upstream model and options (one cloud API that
// hosts several wire formats, such as Gemini and Claude models on Vertex).

import type { ProviderAdapter, ProviderApi, ProviderSettings } from './provider-adapter.ts'
import { anthropicAdapter } from './anthropic/adapter.ts'
import { geminiAdapter } from './gemini/adapter.ts'
import { openaiChatAdapter } from './openai-chat/adapter.ts'
import { openaiResponsesAdapter } from './openai-responses/adapter.ts'
import { chooseAzureAdapter } from './azure-openai/adapter.ts'
import { bedrockAdapter } from './bedrock/adapter.ts'
import { chooseVertexAdapter } from './vertex/adapter.ts'

type AdapterChoice = ProviderAdapter | ((upstreamModelId: string, settings: ProviderSettings) => ProviderAdapter)

const providerAdapters: Readonly<Record<ProviderApi, AdapterChoice>> = {
  'openai-chat': openaiChatAdapter,
  'openai-responses': openaiResponsesAdapter,
  anthropic: anthropicAdapter,
  gemini: geminiAdapter,
  'azure-openai': chooseAzureAdapter,
  bedrock: bedrockAdapter,
  vertex: chooseVertexAdapter,
}

/** The adapter that speaks to `upstreamModelId` at a provider of this API. */
export function adapterFor(api: ProviderApi, upstreamModelId: string, settings: ProviderSettings): ProviderAdapter {
  const choice = providerAdapters[api]
  return typeof choice === 'function' ? choice(upstreamModelId, settings) : choice
}
