import type { ProviderDescriptor } from '../provider-descriptor.ts'
import { geminiEmbeddings } from './embeddings.ts'
import { geminiAdapter } from './adapter.ts'

export const geminiDescriptor: ProviderDescriptor = {
  adapter: geminiAdapter,
  familyName: 'Gemini-compatible',
  embeddings: geminiEmbeddings,
  zdrFamily: 'google',
  listModelsPath: () => '/v1beta/models',
}
