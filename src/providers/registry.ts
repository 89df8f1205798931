// One descriptor per provider API, each exported by the provider's own folder: its adapter (or a choice
// among adapters by upstream model and options), its embeddings translator and the facts the rest of the gateway reads about the
// API (provider-descriptor.ts). Adding an API to ProviderApi fails to compile until it has a row here.
// An OpenAI-compatible server is configured as `api: openai-chat` with its own base_url: no code.

import type { ProviderAdapter, ProviderApi, ProviderSettings } from './provider-adapter.ts'
import type { EmbeddingsAdapter } from './embeddings-adapter.ts'
import type { ProviderDescriptor } from './provider-descriptor.ts'
import { anthropicDescriptor } from './anthropic/descriptor.ts'
import { geminiDescriptor } from './gemini/descriptor.ts'
import { openaiChatDescriptor } from './openai-chat/descriptor.ts'
import { openaiResponsesDescriptor } from './openai-responses/descriptor.ts'
import { azureOpenaiDescriptor } from './azure-openai/descriptor.ts'
import { bedrockDescriptor } from './bedrock/descriptor.ts'
import { vertexDescriptor } from './vertex/descriptor.ts'

const providerDescriptors: Readonly<Record<ProviderApi, ProviderDescriptor>> = {
  'openai-chat': openaiChatDescriptor,
  'openai-responses': openaiResponsesDescriptor,
  anthropic: anthropicDescriptor,
  gemini: geminiDescriptor,
  'azure-openai': azureOpenaiDescriptor,
  bedrock: bedrockDescriptor,
  vertex: vertexDescriptor,
}

/** What the gateway knows about a provider API: its adapter choice, family name, ZDR family and doctor route. */
export function providerDescriptor(api: ProviderApi): ProviderDescriptor {
  return providerDescriptors[api]
}

/** The adapter that speaks to `upstreamModelId` at a provider of this API. */
export function adapterFor(api: ProviderApi, upstreamModelId: string, settings: ProviderSettings): ProviderAdapter {
  const choice = providerDescriptors[api].adapter
  return typeof choice === 'function' ? choice(upstreamModelId, settings) : choice
}

/** The embeddings translator of a provider API, or null when it has no embeddings endpoint. */
export function embeddingsAdapterFor(api: ProviderApi): EmbeddingsAdapter | null {
  return providerDescriptors[api].embeddings
}
