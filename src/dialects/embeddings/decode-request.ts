// POST /embeddings body -> the canonical embeddings call plus the request-level options. Pure.
import type { Static } from 'typebox'
import { GatewayError } from '../../domain/errors.ts'
import type { EmbeddingInput, EmbeddingPart, EmbeddingsCall } from '../../domain/inference/embeddings.ts'
import { createSchemaCheck } from '../schema-check.ts'
import { EmbeddingsRequestSchema } from './request-schema.ts'

export type EncodingFormat = 'float' | 'base64'

export interface DecodedEmbeddingsRequest {
  readonly call: Omit<EmbeddingsCall, 'model'>
  readonly model: string
  readonly encodingFormat: EncodingFormat
  readonly provider?: Readonly<Record<string, unknown>>
  readonly sessionId?: string
  readonly trace?: Readonly<Record<string, unknown>>
  /** Characters of text (or tokens) across every input, checked against the configured maximum. */
  readonly inputSize: number
}

type Body = Static<typeof EmbeddingsRequestSchema>

export function createEmbeddingsDecoder(): (body: unknown) => DecodedEmbeddingsRequest {
  const check = createSchemaCheck(EmbeddingsRequestSchema)
  return (raw) => {
    check(raw)
    const body = raw as Body
    const inputs = decodeInputs(body.input)
    const call: Omit<EmbeddingsCall, 'model'> = {
      inputs,
      ...(body.dimensions === undefined ? {} : { dimensions: body.dimensions }),
      ...(body.input_type === undefined ? {} : { input_type: body.input_type }),
      ...(body.user === undefined ? {} : { user: body.user }),
      // Asked of the upstream too, so a vector can pass through in the encoding the client wants.
      ...(body.encoding_format === 'base64' ? { encoding_format: 'base64' as const } : {}),
    }
    return {
      call,
      model: body.model,
      encodingFormat: body.encoding_format ?? 'float',
      ...(body.provider == null ? {} : { provider: body.provider }),
      ...(body.session_id === undefined ? {} : { sessionId: body.session_id }),
      ...(body.trace == null ? {} : { trace: body.trace }),
      inputSize: inputs.reduce((sum, input) => sum + inputSize(input), 0),
    }
  }
}

function decodeInputs(input: Body['input']): EmbeddingInput[] {
  if (typeof input === 'string') return [{ type: 'text', text: input }]
  const first = input[0]
  if (typeof first === 'string') return (input as string[]).map((text) => ({ type: 'text', text }))
  if (typeof first === 'number') return [{ type: 'tokens', tokens: input as number[] }]
  if (Array.isArray(first)) return (input as number[][]).map((tokens) => ({ type: 'tokens', tokens }))
  return (input as { content: Record<string, unknown>[] }[]).map((item) => ({
    type: 'parts',
    parts: item.content.map(decodePart),
  }))
}

function decodePart(part: Record<string, unknown>): EmbeddingPart {
  if (part.type === 'text') return { type: 'text', text: String(part.text) }
  if (part.type === 'image_url') return { type: 'image_url', url: String((part.image_url as { url: string }).url) }
  return { type: 'other', part }
}

function inputSize(input: EmbeddingInput): number {
  if (input.type === 'text') return input.text.length
  if (input.type === 'tokens') return input.tokens.length
  return input.parts.reduce(
    (sum, part) =>
      sum +
      (part.type === 'text'
        ? part.text.length
        : part.type === 'image_url'
          ? part.url.length
          : JSON.stringify(part.part).length),
    0,
  )
}

/** Refuses a request whose inputs exceed the configured maximum (413). */
export function checkInputSize(decoded: DecodedEmbeddingsRequest, maxInputChars: number): void {
  if (decoded.inputSize > maxInputChars) {
    throw new GatewayError(
      'payload_too_large',
      `The embeddings input is ${decoded.inputSize} characters; this gateway accepts at most ${maxInputChars} per request (embeddings.max_input_chars). Split it into several requests`,
    )
  }
}
