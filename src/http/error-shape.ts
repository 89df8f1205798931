// Which error body a route family answers with. Everything answers the spec's envelope
// `{error: {code, message, metadata?}}`, except the Anthropic Messages family (/messages and below),
// whose clients read Anthropic's `{type: "error", error: {type, message}}` (plus `code`, the status):
// its 401, unknown routes and failures alike.
import { Type } from 'typebox'
import type { GatewayError } from '../domain/errors.ts'
import { toErrorEnvelope } from '../domain/errors.ts'
import { anthropicErrorTypes, encodeMessagesError } from '../dialects/anthropic-messages/encode-error.ts'

export type ErrorShape = 'envelope' | 'anthropic'

const anthropicFamily = '/api/v1/messages'

/** The error shape of a request path (query string allowed). */
export function errorShapeFor(url: string): ErrorShape {
  const path = url.split('?')[0] ?? url
  return path === anthropicFamily || path.startsWith(`${anthropicFamily}/`) ? 'anthropic' : 'envelope'
}

export function errorBodyFor(url: string, error: GatewayError): unknown {
  return errorShapeFor(url) === 'anthropic' ? encodeMessagesError(error).body : toErrorEnvelope(error)
}

/** Anthropic's error body, for the OpenAPI document of the Messages family. */
export const AnthropicErrorSchema = Type.Object(
  {
    type: Type.Literal('error'),
    error: Type.Object({
      type: Type.Enum([...new Set(Object.values(anthropicErrorTypes))]),
      message: Type.String(),
      code: Type.Integer({ description: 'Equals the HTTP status' }),
    }),
  },
  { $id: 'AnthropicError', description: 'Every error body of /messages and the routes below it' },
)
