// The OpenAI Chat Completions format (POST /chat/completions).

import type { Dialect } from '../dialect.ts'
import { encodeEnvelopeError } from '../encode-envelope-error.ts'
import { createSchemaCheck } from '../schema-check.ts'
import { decodeChatRequest } from './decode-request.ts'
import { encodeChatResult } from './encode-result.ts'
import { ChatRequestSchema } from './request-schema.ts'
import type { ChatRequest } from './request-schema.ts'
import { createChatStreamEncoder } from './stream-encoder.ts'

export function createOpenAiChatDialect(): Dialect {
  const check = createSchemaCheck(ChatRequestSchema)
  return {
    name: 'openai-chat',
    requestSchema: ChatRequestSchema,
    decode: (body) => {
      check(body)
      return decodeChatRequest(body as ChatRequest)
    },
    encodeResult: encodeChatResult,
    createStreamEncoder: createChatStreamEncoder,
    encodeError: encodeEnvelopeError,
  }
}
