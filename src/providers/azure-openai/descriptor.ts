import type { ProviderDescriptor } from '../provider-descriptor.ts'
import { azureEmbeddings } from './embeddings.ts'
import { chooseAzureAdapter } from './adapter.ts'

export const azureOpenaiDescriptor: ProviderDescriptor = {
  adapter: chooseAzureAdapter,
  familyName: 'Azure OpenAI',
  embeddings: azureEmbeddings,
  zdrFamily: 'openai',
  // Deployment URLs (an api_version is set) list under /openai/models; the v1 form under /openai/v1/models.
  listModelsPath: (settings) => {
    const version = settings.options?.api_version
    return version === undefined || version === ''
      ? '/openai/v1/models'
      : `/openai/models?api-version=${encodeURIComponent(version)}`
  },
}
