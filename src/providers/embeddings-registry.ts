// One embeddings translator per provider API, or null when the API has no embeddings endpoint
// (Anthropic). Adding a ProviderApi fails to compile until it has a row here.
import type { ProviderApi } from '../domain/inference/provider-api.ts'
import type { EmbeddingsAdapter } from './embeddings-adapter.ts'
import { geminiEmbeddings } from './gemini/embeddings.ts'
import { openaiEmbeddings } from './openai-chat/embeddings.ts'
import { azureEmbeddings } from './azure-openai/embeddings.ts'
import { vertexEmbeddings } from './vertex/embeddings.ts'

export const embeddingsAdapters: Readonly<Record<ProviderApi, EmbeddingsAdapter | null>> = {
  'openai-chat': openaiEmbeddings,
  'openai-responses': openaiEmbeddings,
  anthropic: null,
  gemini: geminiEmbeddings,
  'azure-openai': azureEmbeddings,
  bedrock: null,
  vertex: vertexEmbeddings,
}
