// OpenAI-compatible `POST /embeddings` (OpenAI, and Voyage/Cohere-compatible servers behind the same
// shape). `input_type` is sent as is when the call carries it; the pipeline passes it only to endpoints
// that list it in supported_parameters (OpenAI's own API refuses unknown fields; Voyage-style servers
// read `input_type`). Vectors are asked in the client's encoding (float unless it asked base64) and kept
// as the upstream's text (embeddings-passthrough.ts); an answer of another shape is parsed whole.
import { GatewayError } from '../../domain/errors.ts'
import type {
  EmbeddingInput,
  EmbeddingsCall,
  EmbeddingsResult,
  EmbeddingVector,
} from '../../domain/inference/embeddings.ts'
import type { EmbeddingsAdapter } from '../embeddings-adapter.ts'
import { readWireEmbeddings } from './embeddings-passthrough.ts'
import { jsonHeaders } from './request.ts'

interface OpenAiEmbeddingsBody {
  data?: { embedding?: unknown; index?: number }[]
  model?: string
  usage?: { prompt_tokens?: number; total_tokens?: number }
}

function toWireInput(inputs: readonly EmbeddingInput[]): unknown {
  const wire = inputs.map((input) => {
    if (input.type === 'text') return input.text
    if (input.type === 'tokens') return input.tokens
    return {
      content: input.parts.map((part) =>
        part.type === 'text'
          ? part
          : part.type === 'image_url'
            ? { type: 'image_url', image_url: { url: part.url } }
            : part.part,
      ),
    }
  })
  return wire.length === 1 && typeof wire[0] === 'string' ? wire[0] : wire
}

export function buildOpenAiEmbeddingsRequest(call: EmbeddingsCall) {
  const body: Record<string, unknown> = {
    model: call.model,
    input: toWireInput(call.inputs),
    encoding_format: call.encoding_format ?? 'float',
  }
  if (call.dimensions !== undefined) body.dimensions = call.dimensions
  if (call.input_type !== undefined) body.input_type = call.input_type
  if (call.user !== undefined) body.user = call.user
  return { method: 'POST' as const, path: '/embeddings', headers: jsonHeaders, body }
}

export function parseOpenAiEmbeddings(text: string, inputCount: number): EmbeddingsResult {
  return readWireEmbeddings(text, inputCount) ?? parseWholeAnswer(JSON.parse(text), inputCount)
}

/** The answer parsed whole: vectors as numbers (each checked), placed by index. */
function parseWholeAnswer(body: unknown, inputCount: number): EmbeddingsResult {
  const parsed = body as OpenAiEmbeddingsBody | null
  const data = parsed?.data
  if (!Array.isArray(data) || data.length !== inputCount) {
    throw new GatewayError(
      'upstream_error',
      `The upstream returned ${Array.isArray(data) ? data.length : 'no'} embeddings for ${inputCount} inputs`,
    )
  }
  const vectors: EmbeddingVector[] = new Array(inputCount)
  for (const [position, item] of data.entries()) {
    const index = typeof item.index === 'number' ? item.index : position
    const vector = item.embedding
    if (index < 0 || index >= inputCount || !(isVector(vector) || isBase64(vector)))
      throw new GatewayError(
        'upstream_error',
        'The upstream returned an embedding that is not an array of numbers (nor a base64 string)',
      )
    if (vectors[index] !== undefined)
      throw new GatewayError('upstream_error', `The upstream returned the embedding of input ${index} twice`)
    vectors[index] = typeof vector === 'string' ? { format: 'base64', json: JSON.stringify(vector) } : vector
  }
  const tokens = parsed?.usage?.prompt_tokens ?? parsed?.usage?.total_tokens ?? null
  return { vectors, model: parsed?.model ?? '', prompt_tokens: tokens }
}

const isBase64 = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(value)

export function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'number' && Number.isFinite(item))
}

export const openaiEmbeddings: EmbeddingsAdapter = {
  buildRequest: (call) => buildOpenAiEmbeddingsRequest(call),
  parseResponse: parseOpenAiEmbeddings,
}
