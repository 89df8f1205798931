import type { ProviderDescriptor } from '../provider-descriptor.ts'
import { vertexEmbeddings } from './embeddings.ts'
import { chooseVertexAdapter } from './adapter.ts'

export const vertexDescriptor: ProviderDescriptor = {
  adapter: chooseVertexAdapter,
  familyName: 'Google Vertex AI',
  embeddings: vertexEmbeddings,
  zdrFamily: 'google',
  // The project's models in its location: a free read that needs the token Vertex inference takes.
  listModelsPath: (settings) => {
    const project = encodeURIComponent(settings.options?.project ?? '')
    return `/v1/projects/${project}/locations/${encodeURIComponent(settings.options?.location ?? 'global')}/models`
  },
}
