// The error envelope as a schema, for the OpenAPI document.
import { Type } from 'typebox'

export const ErrorEnvelopeSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.Integer({ description: 'Equals the HTTP status' }),
      message: Type.String(),
      metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every error body' },
)
