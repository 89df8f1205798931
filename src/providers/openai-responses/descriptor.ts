import type { ProviderDescriptor } from '../provider-descriptor.ts'
import { openaiEmbeddings } from '../openai-chat/embeddings.ts'
import { openaiResponsesAdapter } from './adapter.ts'

export const openaiResponsesDescriptor: ProviderDescriptor = {
  adapter: openaiResponsesAdapter,
  familyName: 'OpenAI-compatible (Responses)',
  embeddings: openaiEmbeddings,
  zdrFamily: 'openai',
  listModelsPath: () => '/models',
}
