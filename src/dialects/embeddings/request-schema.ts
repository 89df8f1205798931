// The POST /embeddings body (OpenRouter's shape): the one validation before decode's own rules.
import { Type } from 'typebox'
import { identifierMaxLength, ProviderPreferencesSchema, TraceSchema } from '../common-request-schema.ts'

const TextPart = Type.Object({ type: Type.Literal('text'), text: Type.String() })
const ImagePart = Type.Object({
  type: Type.Literal('image_url'),
  image_url: Type.Object({ url: Type.String({ minLength: 1 }) }),
})
const OtherPart = Type.Object({ type: Type.Enum(['input_audio', 'input_video', 'input_file']) })
const MultimodalInput = Type.Object({
  content: Type.Array(Type.Union([TextPart, ImagePart, OtherPart]), { minItems: 1 }),
})

/** Inputs per request (OpenAI's documented maximum for one call) and tokens per token-array input. */
const embeddingInputsLimit = 2048
const embeddingTokensLimit = 131_072

export const EmbeddingsInputSchema = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Array(Type.String(), { minItems: 1, maxItems: embeddingInputsLimit }),
  Type.Array(Type.Integer({ minimum: 0 }), { minItems: 1, maxItems: embeddingTokensLimit }),
  Type.Array(Type.Array(Type.Integer({ minimum: 0 }), { minItems: 1, maxItems: embeddingTokensLimit }), {
    minItems: 1,
    maxItems: embeddingInputsLimit,
  }),
  Type.Array(MultimodalInput, { minItems: 1, maxItems: embeddingInputsLimit }),
])

export const EmbeddingsRequestSchema = Type.Object({
  input: EmbeddingsInputSchema,
  model: Type.String({ minLength: 1 }),
  dimensions: Type.Optional(Type.Integer({ minimum: 1 })),
  encoding_format: Type.Optional(Type.Enum(['float', 'base64'])),
  input_type: Type.Optional(Type.String({ minLength: 1 })),
  provider: Type.Optional(Type.Union([ProviderPreferencesSchema, Type.Null()])),
  session_id: Type.Optional(Type.String({ maxLength: identifierMaxLength })),
  trace: Type.Optional(Type.Union([TraceSchema, Type.Null()])),
  user: Type.Optional(Type.String({ maxLength: identifierMaxLength })),
})
