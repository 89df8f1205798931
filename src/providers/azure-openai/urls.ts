// Azure OpenAI request paths, relative to the resource endpoint (`https://{resource}.openai.azure.com`).
// With `options.api_version`: the deployment form, the upstream model id being the deployment name
// (`/openai/deployments/{deployment}/chat/completions?api-version=...`; the Responses API takes the
// deployment as `model` at `/openai/responses?api-version=...`). Without: the v1 form (`/openai/v1/...`).
import type { ProviderSettings } from '../provider-adapter.ts'

export type AzureOperation = 'chat/completions' | 'embeddings' | 'responses'

export function azurePath(operation: AzureOperation, deployment: string, settings: ProviderSettings): string {
  const version = settings.options?.api_version
  if (version === undefined || version === '') return `/openai/v1/${operation}`
  const query = `?api-version=${encodeURIComponent(version)}`
  if (operation === 'responses') return `/openai/responses${query}`
  return `/openai/deployments/${encodeURIComponent(deployment)}/${operation}${query}`
}
