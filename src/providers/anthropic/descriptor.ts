import type { ProviderDescriptor } from '../provider-descriptor.ts'
import { anthropicAdapter } from './adapter.ts'

export const anthropicDescriptor: ProviderDescriptor = {
  adapter: anthropicAdapter,
  familyName: 'Anthropic-compatible (Messages)',
  embeddings: null,
  zdrFamily: 'anthropic',
  listModelsPath: () => '/v1/models',
}
