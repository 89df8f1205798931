// Canonical embeddings result -> the public response's JSON text: `object: list`, `data[]`, `model`, the
// gen- `id`, `usage` with cost. base64 is each vector as little-endian float32 bytes, as OpenAI's API
// sends it. A vector kept as the upstream's text in the encoding the client asked for is copied into
// the answer as it came; only one in the other encoding (or parsed to numbers) is converted.
import type { EmbeddingVector } from '../../domain/inference/embeddings.ts'
import type { EncodingFormat } from './decode-request.ts'

export interface EmbeddingsAnswer {
  readonly generationId: string
  readonly model: string
  readonly vectors: readonly EmbeddingVector[]
  readonly promptTokens: number
  readonly costUsd: number
  readonly encodingFormat: EncodingFormat
}

/** The answer as JSON text (the vectors are spliced in, never parsed or printed again). */
export function encodeEmbeddingsResponse(answer: EmbeddingsAnswer): string {
  let data = ''
  for (const [index, vector] of answer.vectors.entries()) {
    data += `${index === 0 ? '' : ','}{"object":"embedding","embedding":${vectorJson(vector, answer.encodingFormat)},"index":${index}}`
  }
  const usage = { prompt_tokens: answer.promptTokens, total_tokens: answer.promptTokens, cost: answer.costUsd }
  return `{"object":"list","data":[${data}],"model":${JSON.stringify(answer.model)},"id":${JSON.stringify(answer.generationId)},"usage":${JSON.stringify(usage)}}`
}

function vectorJson(vector: EmbeddingVector, format: EncodingFormat): string {
  if (!isNumbers(vector)) {
    if (vector.format === format) return vector.json
    return format === 'base64'
      ? JSON.stringify(toBase64Float32(JSON.parse(vector.json) as number[]))
      : JSON.stringify(fromBase64Float32(JSON.parse(vector.json) as string))
  }
  return format === 'base64' ? JSON.stringify(toBase64Float32(vector)) : JSON.stringify(vector)
}

const isNumbers = (vector: EmbeddingVector): vector is readonly number[] => Array.isArray(vector)

export function toBase64Float32(vector: readonly number[]): string {
  const buffer = Buffer.alloc(vector.length * 4)
  vector.forEach((value, index) => buffer.writeFloatLE(value, index * 4))
  return buffer.toString('base64')
}

function fromBase64Float32(text: string): number[] {
  const bytes = Buffer.from(text, 'base64')
  const vector: number[] = new Array(Math.floor(bytes.length / 4))
  for (let index = 0; index < vector.length; index++) vector[index] = bytes.readFloatLE(index * 4)
  return vector
}
