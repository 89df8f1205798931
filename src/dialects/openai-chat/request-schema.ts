// The POST /chat/completions body (OpenAI Chat Completions with OpenRouter's extensions). Objects
// accept unknown extra fields.

import { Type } from 'typebox'
import type { Static } from 'typebox'
import {
  CacheControlSchema,
  commonRequestProperties,
  ReasoningEffortSchema,
  requestListLimits,
} from '../common-request-schema.ts'

const Nullable = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]))

// `cache_control` marks an Anthropic prompt-caching breakpoint (OpenRouter's chat extension).
const CacheControl = Nullable(CacheControlSchema)
const TextPart = Type.Object({ type: Type.Literal('text'), text: Type.String(), cache_control: CacheControl })
const ImageUrlPart = Type.Object({
  type: Type.Literal('image_url'),
  image_url: Type.Object({
    url: Type.String({ minLength: 1 }),
    detail: Type.Optional(Type.Enum(['auto', 'low', 'high'])),
  }),
  cache_control: CacheControl,
})
const RefusalPart = Type.Object({ type: Type.Literal('refusal'), refusal: Type.String() })
const UserPart = Type.Union([TextPart, ImageUrlPart])

const ToolCall = Type.Object({
  id: Type.String({ minLength: 1 }),
  type: Type.Optional(Type.Literal('function')),
  function: Type.Object({ name: Type.String({ minLength: 1 }), arguments: Type.String() }),
})

export const ReasoningDetailSchema = Type.Union([
  Type.Object({
    type: Type.Literal('reasoning.text'),
    text: Nullable(Type.String()),
    signature: Nullable(Type.String()),
    format: Nullable(Type.String()),
    id: Nullable(Type.String()),
  }),
  Type.Object({
    type: Type.Literal('reasoning.summary'),
    summary: Type.String(),
    format: Nullable(Type.String()),
    id: Nullable(Type.String()),
  }),
  Type.Object({
    type: Type.Literal('reasoning.encrypted'),
    data: Type.String(),
    format: Nullable(Type.String()),
    id: Nullable(Type.String()),
  }),
])

const SystemMessage = Type.Object({
  role: Type.Enum(['system', 'developer']),
  content: Type.Union([Type.String(), Type.Array(TextPart)]),
})
const UserMessage = Type.Object({
  role: Type.Literal('user'),
  content: Type.Union([Type.String(), Type.Array(UserPart)]),
})
const AssistantMessage = Type.Object({
  role: Type.Literal('assistant'),
  content: Nullable(Type.Union([Type.String(), Type.Array(Type.Union([TextPart, RefusalPart]))])),
  tool_calls: Nullable(Type.Array(ToolCall)),
  reasoning: Nullable(Type.String()),
  reasoning_details: Nullable(Type.Array(ReasoningDetailSchema)),
  refusal: Nullable(Type.String()),
})
const ToolMessage = Type.Object({
  role: Type.Literal('tool'),
  tool_call_id: Type.String({ minLength: 1 }),
  content: Type.Union([Type.String(), Type.Array(UserPart)]),
})
export const ChatMessageSchema = Type.Union([SystemMessage, UserMessage, AssistantMessage, ToolMessage])

const FunctionTool = Type.Object({
  type: Type.Literal('function'),
  function: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 64 }),
    description: Nullable(Type.String()),
    parameters: Nullable(Type.Object({})),
    strict: Nullable(Type.Boolean()),
  }),
})

const ToolChoice = Type.Union([
  Type.Enum(['auto', 'none', 'required']),
  Type.Object({ type: Type.Literal('function'), function: Type.Object({ name: Type.String({ minLength: 1 }) }) }),
])

const ResponseFormat = Type.Union([
  Type.Object({ type: Type.Literal('text') }),
  Type.Object({ type: Type.Literal('json_object') }),
  Type.Object({
    type: Type.Literal('json_schema'),
    json_schema: Type.Object({
      name: Type.String({ minLength: 1 }),
      schema: Nullable(Type.Object({})),
      strict: Nullable(Type.Boolean()),
      description: Nullable(Type.String()),
    }),
  }),
])

const Reasoning = Type.Object({
  effort: Nullable(ReasoningEffortSchema),
  max_tokens: Nullable(Type.Integer({ minimum: 0 })),
  enabled: Nullable(Type.Boolean()),
  exclude: Nullable(Type.Boolean()),
  summary: Nullable(Type.Enum(['auto', 'concise', 'detailed'])),
})

export const ChatRequestSchema = Type.Object({
  ...commonRequestProperties,
  messages: Type.Array(ChatMessageSchema, { minItems: 1, maxItems: requestListLimits.messages }),
  tools: Nullable(Type.Array(FunctionTool, { maxItems: requestListLimits.tools })),
  tool_choice: Nullable(ToolChoice),
  parallel_tool_calls: Nullable(Type.Boolean()),
  response_format: Nullable(ResponseFormat),
  max_tokens: Nullable(Type.Integer({ minimum: 1 })),
  max_completion_tokens: Nullable(Type.Integer({ minimum: 1 })),
  temperature: Nullable(Type.Number({ minimum: 0, maximum: 2 })),
  top_p: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  top_k: Nullable(Type.Integer({ minimum: 0 })),
  frequency_penalty: Nullable(Type.Number({ minimum: -2, maximum: 2 })),
  presence_penalty: Nullable(Type.Number({ minimum: -2, maximum: 2 })),
  seed: Nullable(Type.Integer()),
  stop: Nullable(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: requestListLimits.stopSequences })])),
  logprobs: Nullable(Type.Boolean()),
  top_logprobs: Nullable(Type.Integer({ minimum: 0, maximum: 20 })),
  n: Nullable(Type.Integer({ minimum: 1, maximum: 1 })),
  reasoning: Nullable(Reasoning),
  reasoning_effort: Nullable(ReasoningEffortSchema),
  include_reasoning: Nullable(Type.Boolean()),
  stream_options: Nullable(Type.Object({ include_usage: Type.Optional(Type.Boolean()) })),
  transforms: Nullable(Type.Array(Type.String(), { maxItems: requestListLimits.transforms })),
})

export type ChatRequest = Static<typeof ChatRequestSchema>
export type ChatMessageInput = Static<typeof ChatMessageSchema>
export type ReasoningDetail = Static<typeof ReasoningDetailSchema>
