// Canonical embeddings result -> the public response: `object: list`, `data[]`, `model`, the gen- `id`,
// `usage` with cost. base64 is each vector as little-endian float32 bytes, as OpenAI's API sends it.
import type { EncodingFormat } from './decode-request.ts'

export interface EmbeddingsAnswer {
  readonly generationId: string
  readonly model: string
  readonly vectors: readonly (readonly number[])[]
  readonly promptTokens: number
  readonly costUsd: number
  readonly encodingFormat: EncodingFormat
}

export function encodeEmbeddingsResponse(answer: EmbeddingsAnswer): Record<string, unknown> {
  return {
    object: 'list',
    data: answer.vectors.map((vector, index) => ({
      object: 'embedding',
      embedding: answer.encodingFormat === 'base64' ? toBase64Float32(vector) : vector,
      index,
    })),
    model: answer.model,
    id: answer.generationId,
    usage: { prompt_tokens: answer.promptTokens, total_tokens: answer.promptTokens, cost: answer.costUsd },
  }
}

export function toBase64Float32(vector: readonly number[]): string {
  const buffer = Buffer.alloc(vector.length * 4)
  vector.forEach((value, index) => buffer.writeFloatLE(value, index * 4))
  return buffer.toString('base64')
}
