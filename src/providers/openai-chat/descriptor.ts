import type { ProviderDescriptor } from '../provider-descriptor.ts'
import { openaiEmbeddings } from './embeddings.ts'
import { openaiChatAdapter } from './adapter.ts'

export const openaiChatDescriptor: ProviderDescriptor = {
  adapter: openaiChatAdapter,
  familyName: 'OpenAI-compatible (Chat Completions)',
  embeddings: openaiEmbeddings,
  zdrFamily: 'other',
  listModelsPath: () => '/models',
}
