// The OpenRouter error envelope `{error: {code, message, metadata?}}` with the kind's HTTP status,
// used by the OpenAI-style formats.

import { toErrorEnvelope } from '../domain/errors.ts'
import type { GatewayError } from '../domain/errors.ts'
import type { EncodedError } from './dialect.ts'

export function encodeEnvelopeError(error: GatewayError): EncodedError {
  return { status: error.status, body: { ...toErrorEnvelope(error) } }
}
