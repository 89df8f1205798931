import type { ProviderDescriptor } from '../provider-descriptor.ts'
import { bedrockAdapter } from './adapter.ts'

export const bedrockDescriptor: ProviderDescriptor = {
  adapter: bedrockAdapter,
  familyName: 'Amazon Bedrock (Converse)',
  embeddings: null,
  zdrFamily: 'other',
  // The model list is on Bedrock's control plane, not bedrock-runtime; SigV4 providers are checked for
  // reachability only, so any path of the runtime endpoint answers that.
  listModelsPath: () => '/',
}
