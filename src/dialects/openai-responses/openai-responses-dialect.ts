// The OpenAI Responses format (POST /responses).

import type { Dialect } from '../dialect.ts'
import { createSchemaCheck } from '../schema-check.ts'
import { decodeResponsesRequest } from './decode-request.ts'
import { encodeResponsesError } from './encode-error.ts'
import { encodeResponsesResult } from './encode-result.ts'
import { ResponsesRequestSchema } from './request-schema.ts'
import type { ResponsesRequest } from './request-schema.ts'
import { ResponsesPassThroughEncoder } from './pass-through-encoder.ts'
import { createResponsesStreamEncoder } from './stream-encoder.ts'

export function createOpenAiResponsesDialect(): Dialect {
  const check = createSchemaCheck(ResponsesRequestSchema)
  return {
    name: 'openai-responses',
    requestSchema: ResponsesRequestSchema,
    decode: (body) => {
      check(body)
      return decodeResponsesRequest(body as ResponsesRequest)
    },
    encodeResult: encodeResponsesResult,
    createStreamEncoder: (context) =>
      context.passThrough === true ? new ResponsesPassThroughEncoder(context) : createResponsesStreamEncoder(context),
    encodeError: encodeResponsesError,
  }
}
