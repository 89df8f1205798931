// Azure OpenAI embeddings: OpenAI's body and answer at the deployment's (or the v1) embeddings URL.
import type { EmbeddingsAdapter } from '../embeddings-adapter.ts'
import { buildOpenAiEmbeddingsRequest, parseOpenAiEmbeddings } from '../openai-chat/embeddings.ts'
import { azurePath } from './urls.ts'

export const azureEmbeddings: EmbeddingsAdapter = {
  buildRequest: (call, settings) => ({
    ...buildOpenAiEmbeddingsRequest(call),
    path: azurePath('embeddings', call.model, settings),
  }),
  parseResponse: parseOpenAiEmbeddings,
}
