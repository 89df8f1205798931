// Vertex AI embeddings: Google's text embedding models (text-embedding-005, gemini-embedding-001,
// text-multilingual-embedding-002) through `:predict`, one instance per input (`{content, task_type}`),
// `dimensions` as `parameters.outputDimensionality`. Vertex counts each input's tokens
// (`statistics.token_count`); their sum is the prompt tokens.
import { GatewayError } from '../../domain/errors.ts'
import type { EmbeddingInput, EmbeddingsCall, EmbeddingsResult } from '../../domain/inference/embeddings.ts'
import type { EmbeddingsAdapter } from '../embeddings-adapter.ts'
import { taskType } from '../gemini/embeddings.ts'
import { isVector } from '../openai-chat/embeddings.ts'
import type { ProviderSettings, UpstreamRequest } from '../provider-adapter.ts'
import { vertexModelPath } from './urls.ts'

function textOf(input: EmbeddingInput): string {
  if (input.type === 'text') return input.text
  if (input.type === 'parts' && input.parts.every((part) => part.type === 'text'))
    return input.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')
  throw new GatewayError(
    'invalid_request',
    'Invalid request parameters: Vertex AI text embedding models take text, not token arrays or media; send input as text',
  )
}

function buildVertexEmbeddingsRequest(call: EmbeddingsCall, settings: ProviderSettings): UpstreamRequest {
  const task = taskType(call.input_type)
  const instances = call.inputs.map((input) => ({
    content: textOf(input),
    ...(task === undefined ? {} : { task_type: task }),
  }))
  return {
    method: 'POST',
    path: vertexModelPath(settings, call.model, 'predict'),
    headers: { 'content-type': 'application/json' },
    body:
      call.dimensions === undefined
        ? { instances }
        : { instances, parameters: { outputDimensionality: call.dimensions } },
  }
}

interface Prediction {
  readonly embeddings?: { readonly values?: unknown; readonly statistics?: { readonly token_count?: unknown } }
}

function parseVertexEmbeddings(text: string, inputCount: number): EmbeddingsResult {
  const parsed = JSON.parse(text) as { predictions?: unknown } | null
  const predictions: readonly (Prediction | null)[] = Array.isArray(parsed?.predictions) ? parsed.predictions : []
  const values = predictions.map((prediction) => prediction?.embeddings?.values)
  if (values.length !== inputCount || !values.every(isVector))
    throw new GatewayError(
      'upstream_error',
      `Vertex AI returned ${values.length} embeddings for ${inputCount} inputs, or a vector that is not an array of numbers`,
    )
  const counts = predictions.map((prediction) => prediction?.embeddings?.statistics?.token_count)
  const counted = counts.every((count): count is number => typeof count === 'number')
  return {
    vectors: values,
    model: '',
    prompt_tokens: counted ? counts.reduce((sum, count) => sum + count, 0) : null,
  }
}

export const vertexEmbeddings: EmbeddingsAdapter = {
  buildRequest: buildVertexEmbeddingsRequest,
  parseResponse: parseVertexEmbeddings,
}
