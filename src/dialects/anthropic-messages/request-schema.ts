// The POST /messages body (Anthropic Messages with OpenRouter's routing extras). Objects accept unknown
// extra fields. `metadata` and `service_tier` keep Anthropic's meaning here. `thread` and `container` name
// server-side state the gateway does not keep: declared so decode can refuse any non-null value.

import { Type } from 'typebox'
import type { Static } from 'typebox'
import {
  CacheControlSchema,
  commonRequestProperties,
  identifierMaxLength,
  requestListLimits,
} from '../common-request-schema.ts'

const Nullable = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]))

const CacheControl = Nullable(CacheControlSchema)
const TextBlock = Type.Object({ type: Type.Literal('text'), text: Type.String(), cache_control: CacheControl })
const ImageBlock = Type.Object({
  type: Type.Literal('image'),
  source: Type.Union([
    Type.Object({ type: Type.Literal('base64'), media_type: Type.String({ minLength: 1 }), data: Type.String() }),
    Type.Object({ type: Type.Literal('url'), url: Type.String({ minLength: 1 }) }),
  ]),
  cache_control: CacheControl,
})
const ToolUseBlock = Type.Object({
  type: Type.Literal('tool_use'),
  id: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
  input: Type.Unknown(),
  cache_control: CacheControl,
})
const ToolResultBlock = Type.Object({
  type: Type.Literal('tool_result'),
  tool_use_id: Type.String({ minLength: 1 }),
  content: Type.Optional(Type.Union([Type.String(), Type.Array(Type.Union([TextBlock, ImageBlock]))])),
  is_error: Type.Optional(Type.Boolean()),
  cache_control: CacheControl,
})
const ThinkingBlock = Type.Object({ type: Type.Literal('thinking'), thinking: Type.String(), signature: Type.String() })
const RedactedThinkingBlock = Type.Object({ type: Type.Literal('redacted_thinking'), data: Type.String() })
export const ContentBlockSchema = Type.Union([
  TextBlock,
  ImageBlock,
  ToolUseBlock,
  ToolResultBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
])

const MessageParam = Type.Object({
  role: Type.Enum(['user', 'assistant']),
  content: Type.Union([Type.String(), Type.Array(ContentBlockSchema)]),
})

const Tool = Type.Object({
  type: Type.Optional(Type.Literal('custom')),
  name: Type.String({ minLength: 1, maxLength: 128 }),
  description: Type.Optional(Type.String()),
  input_schema: Type.Object({}),
  cache_control: CacheControl,
})

const ToolChoice = Type.Union([
  Type.Object({ type: Type.Enum(['auto', 'any', 'none']), disable_parallel_tool_use: Type.Optional(Type.Boolean()) }),
  Type.Object({
    type: Type.Literal('tool'),
    name: Type.String({ minLength: 1 }),
    disable_parallel_tool_use: Type.Optional(Type.Boolean()),
  }),
])

const Thinking = Type.Union([
  Type.Object({ type: Type.Literal('enabled'), budget_tokens: Type.Integer({ minimum: 1024 }) }),
  Type.Object({ type: Type.Literal('disabled') }),
])

export const MessagesRequestSchema = Type.Object({
  ...commonRequestProperties,
  max_tokens: Type.Integer({ minimum: 1 }),
  messages: Type.Array(MessageParam, { minItems: 1, maxItems: requestListLimits.messages }),
  system: Type.Optional(Type.Union([Type.String(), Type.Array(TextBlock, { maxItems: requestListLimits.messages })])),
  tools: Type.Optional(Type.Array(Tool, { maxItems: requestListLimits.tools })),
  tool_choice: Type.Optional(ToolChoice),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  top_k: Type.Optional(Type.Integer({ minimum: 0 })),
  stop_sequences: Type.Optional(Type.Array(Type.String(), { maxItems: requestListLimits.stopSequences })),
  thinking: Type.Optional(Thinking),
  metadata: Type.Optional(Type.Object({ user_id: Nullable(Type.String({ maxLength: identifierMaxLength })) })),
  service_tier: Type.Optional(Type.Enum(['auto', 'standard_only'])),
  thread: Type.Optional(Type.Unknown()),
  container: Type.Optional(Type.Unknown()),
})

export type MessagesRequest = Static<typeof MessagesRequestSchema>
export type ContentBlockInput = Static<typeof ContentBlockSchema>
