// The Anthropic Messages format (POST /messages).

import type { Dialect } from '../dialect.ts'
import { createSchemaCheck } from '../schema-check.ts'
import { decodeMessagesRequest } from './decode-request.ts'
import { encodeMessagesError } from './encode-error.ts'
import { encodeMessagesResult } from './encode-result.ts'
import { MessagesRequestSchema } from './request-schema.ts'
import type { MessagesRequest } from './request-schema.ts'
import { createMessagesStreamEncoder } from './stream-encoder.ts'

export function createAnthropicMessagesDialect(): Dialect {
  const check = createSchemaCheck(MessagesRequestSchema)
  return {
    name: 'anthropic-messages',
    requestSchema: MessagesRequestSchema,
    decode: (body) => {
      check(body)
      return decodeMessagesRequest(body as MessagesRequest)
    },
    encodeResult: encodeMessagesResult,
    createStreamEncoder: createMessagesStreamEncoder,
    encodeError: encodeMessagesError,
  }
}
