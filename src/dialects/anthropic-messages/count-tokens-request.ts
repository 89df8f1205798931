// The POST /messages/count_tokens body (Anthropic's token counting): the input half of a Messages
// request, with `model` required and no answer settings (`max_tokens`, sampling, streaming). Decoded to
// the canonical messages and tools, which are what an input estimate reads.

import { Type } from 'typebox'
import type { Static } from 'typebox'
import type { FunctionTool } from '../../domain/inference/call.ts'
import type { Message } from '../../domain/inference/message.ts'
import { createSchemaCheck } from '../schema-check.ts'
import { decodeMessages } from './decode-messages.ts'
import { decodeMessagesTools } from './decode-request.ts'
import { MessagesRequestSchema } from './request-schema.ts'

const input = MessagesRequestSchema.properties

export const CountTokensRequestSchema = Type.Object({
  model: Type.String({ minLength: 1 }),
  messages: input.messages,
  system: input.system,
  tools: input.tools,
  tool_choice: input.tool_choice,
  thinking: input.thinking,
})

export interface DecodedCountTokensRequest {
  readonly model: string
  readonly messages: readonly Message[]
  readonly tools?: readonly FunctionTool[]
}

const check = createSchemaCheck(CountTokensRequestSchema)

/** Checks the body (a GatewayError `invalid_request` naming the field otherwise) and decodes it. */
export function decodeCountTokensRequest(body: unknown): DecodedCountTokensRequest {
  check(body)
  const request = body as Static<typeof CountTokensRequestSchema>
  const tools = decodeMessagesTools(request.tools)
  return { model: request.model, messages: decodeMessages(request), ...(tools === undefined ? {} : { tools }) }
}
