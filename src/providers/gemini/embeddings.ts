// Gemini embeddings: one input -> `:embedContent`, several -> `:batchEmbedContents`. `dimensions`
// becomes `outputDimensionality`; `input_type` becomes `taskType` (search_query -> RETRIEVAL_QUERY,
// search_document -> RETRIEVAL_DOCUMENT, ...; an upper-case value is sent as is). Gemini reports no
// token count, so the result's prompt_tokens is null and the gateway estimates.
import { GatewayError } from '../../domain/errors.ts'
import type { EmbeddingInput, EmbeddingsCall, EmbeddingsResult } from '../../domain/inference/embeddings.ts'
import type { EmbeddingsAdapter } from '../embeddings-adapter.ts'
import type { UpstreamRequest } from '../provider-adapter.ts'
import { isVector } from '../openai-chat/embeddings.ts'

const taskTypes: Readonly<Record<string, string>> = {
  search_query: 'RETRIEVAL_QUERY',
  search_document: 'RETRIEVAL_DOCUMENT',
  query: 'RETRIEVAL_QUERY',
  document: 'RETRIEVAL_DOCUMENT',
  classification: 'CLASSIFICATION',
  clustering: 'CLUSTERING',
  semantic_similarity: 'SEMANTIC_SIMILARITY',
  question_answering: 'QUESTION_ANSWERING',
  fact_verification: 'FACT_VERIFICATION',
  code_retrieval_query: 'CODE_RETRIEVAL_QUERY',
}

function toContent(input: EmbeddingInput): { parts: Record<string, unknown>[] } {
  if (input.type === 'text') return { parts: [{ text: input.text }] }
  if (input.type === 'tokens')
    throw new GatewayError(
      'invalid_request',
      'Invalid request parameters: Gemini embedding models take text, not token arrays; send input as text',
    )
  return {
    parts: input.parts.map((part) => {
      if (part.type === 'text') return { text: part.text }
      throw new GatewayError(
        'invalid_request',
        'Invalid request parameters: this Gemini embedding endpoint takes text parts only',
      )
    }),
  }
}

export function taskType(inputType: string | undefined): string | undefined {
  if (inputType === undefined) return undefined
  return taskTypes[inputType.toLowerCase()] ?? (/^[A-Z_]+$/.test(inputType) ? inputType : undefined)
}

function buildGeminiEmbeddingsRequest(call: EmbeddingsCall): UpstreamRequest {
  const model = call.model.replace(/^models\//, '')
  const shared: Record<string, unknown> = {}
  const task = taskType(call.input_type)
  if (task !== undefined) shared.taskType = task
  if (call.dimensions !== undefined) shared.outputDimensionality = call.dimensions
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  const single = call.inputs.length === 1 ? call.inputs[0] : undefined
  if (single !== undefined) {
    return {
      method: 'POST',
      path: `/v1beta/models/${encodeURIComponent(model)}:embedContent`,
      headers,
      body: { content: toContent(single), ...shared },
    }
  }
  const requests = call.inputs.map((input) => ({ model: `models/${model}`, content: toContent(input), ...shared }))
  return {
    method: 'POST',
    path: `/v1beta/models/${encodeURIComponent(model)}:batchEmbedContents`,
    headers,
    body: { requests },
  }
}

function parseGeminiEmbeddings(text: string, inputCount: number): EmbeddingsResult {
  const parsed = JSON.parse(text) as { embedding?: { values?: unknown }; embeddings?: { values?: unknown }[] } | null
  const values =
    parsed?.embeddings !== undefined ? parsed.embeddings.map((item) => item?.values) : [parsed?.embedding?.values]
  if (values.length !== inputCount || !values.every(isVector)) {
    throw new GatewayError(
      'upstream_error',
      `Gemini returned ${values.length} embeddings for ${inputCount} inputs, or a vector that is not an array of numbers`,
    )
  }
  return { vectors: values, model: '', prompt_tokens: null }
}

export const geminiEmbeddings: EmbeddingsAdapter = {
  buildRequest: buildGeminiEmbeddingsRequest,
  parseResponse: parseGeminiEmbeddings,
}
