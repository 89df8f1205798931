// The POST /responses body (OpenRouter's Responses API). Objects accept unknown extra fields.

import { Type } from 'typebox'
import type { Static } from 'typebox'
import { commonRequestProperties, ReasoningEffortSchema, requestListLimits } from '../common-request-schema.ts'

export const maxToolCallsLimit = 30

const Nullable = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]))

const InputText = Type.Object({ type: Type.Literal('input_text'), text: Type.String() })
const InputImage = Type.Object({
  type: Type.Literal('input_image'),
  image_url: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
  file_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  detail: Type.Optional(Type.Enum(['auto', 'low', 'high'])),
})
const InputFile = Type.Object({ type: Type.Literal('input_file') })
const OutputText = Type.Object({ type: Type.Literal('output_text'), text: Type.String() })
const Refusal = Type.Object({ type: Type.Literal('refusal'), refusal: Type.String() })
export const ContentPartSchema = Type.Union([InputText, InputImage, InputFile, OutputText, Refusal])

const MessageItem = Type.Object({
  type: Type.Optional(Type.Literal('message')),
  role: Type.Enum(['user', 'assistant', 'system', 'developer']),
  content: Type.Union([Type.String(), Type.Array(ContentPartSchema)]),
})
const FunctionCallItem = Type.Object({
  type: Type.Literal('function_call'),
  call_id: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
  arguments: Type.String(),
})
const FunctionCallOutputItem = Type.Object({
  type: Type.Literal('function_call_output'),
  call_id: Type.String({ minLength: 1 }),
  output: Type.Union([Type.String(), Type.Array(ContentPartSchema)]),
})
const ReasoningPart = Type.Object({ type: Type.String(), text: Type.String() })
const ReasoningInputItem = Type.Object({
  type: Type.Literal('reasoning'),
  id: Type.Optional(Type.String()),
  summary: Type.Optional(Type.Array(ReasoningPart)),
  content: Nullable(Type.Array(ReasoningPart)),
  encrypted_content: Nullable(Type.String()),
})
/** Server-tool items of an earlier turn; their results already live in the assistant's text. */
const ServerToolItem = Type.Object({ type: Type.String({ pattern: '^openrouter:' }) })
export const InputItemSchema = Type.Union([
  MessageItem,
  FunctionCallItem,
  FunctionCallOutputItem,
  ReasoningInputItem,
  ServerToolItem,
])

const FunctionTool = Type.Object({
  type: Type.Literal('function'),
  name: Type.String({ minLength: 1, maxLength: 64 }),
  description: Nullable(Type.String()),
  parameters: Nullable(Type.Object({})),
  strict: Nullable(Type.Boolean()),
})
/** `openrouter:<tool>`; decode checks the name against the known server tools. */
const ServerTool = Type.Object({ type: Type.String({ pattern: '^openrouter:' }) })

const ToolChoice = Type.Union([
  Type.Enum(['auto', 'none', 'required']),
  Type.Object({ type: Type.Literal('function'), name: Type.String({ minLength: 1 }) }),
])

const TextFormat = Type.Union([
  Type.Object({ type: Type.Literal('text') }),
  Type.Object({ type: Type.Literal('json_object') }),
  Type.Object({
    type: Type.Literal('json_schema'),
    name: Type.String({ minLength: 1 }),
    schema: Type.Object({}),
    strict: Nullable(Type.Boolean()),
    description: Nullable(Type.String()),
  }),
])

const Reasoning = Type.Object({
  effort: Nullable(ReasoningEffortSchema),
  summary: Nullable(Type.Enum(['auto', 'concise', 'detailed'])),
  enabled: Nullable(Type.Boolean()),
  max_tokens: Nullable(Type.Integer({ minimum: 0 })),
  mode: Nullable(Type.Enum(['standard', 'pro'])),
  context: Nullable(Type.Enum(['auto', 'all_turns', 'current_turn'])),
})

const StopCondition = Type.Union([
  Type.Object({ type: Type.Literal('step_count_is'), step_count: Type.Integer({ minimum: 1 }) }),
  Type.Object({ type: Type.Literal('max_cost'), max_cost_in_dollars: Type.Number({ exclusiveMinimum: 0 }) }),
  Type.Object({ type: Type.Literal('finish_reason_is'), reason: Type.String({ minLength: 1 }) }),
  Type.Object({ type: Type.Literal('has_tool_call'), tool_name: Type.String({ minLength: 1 }) }),
  Type.Object({ type: Type.Literal('max_tokens_used'), max_tokens: Type.Integer({ minimum: 1 }) }),
])

export const includeValues = [
  'file_search_call.results',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'reasoning.encrypted_content',
  'code_interpreter_call.outputs',
] as const

export const ResponsesRequestSchema = Type.Object({
  ...commonRequestProperties,
  input: Type.Union([Type.String(), Type.Array(InputItemSchema, { maxItems: requestListLimits.messages })]),
  instructions: Nullable(Type.String()),
  tools: Nullable(Type.Array(Type.Union([FunctionTool, ServerTool]), { maxItems: requestListLimits.tools })),
  tool_choice: Nullable(ToolChoice),
  parallel_tool_calls: Nullable(Type.Boolean()),
  text: Nullable(
    Type.Object({ format: Nullable(TextFormat), verbosity: Nullable(Type.Enum(['low', 'medium', 'high'])) }),
  ),
  reasoning: Nullable(Reasoning),
  max_output_tokens: Nullable(Type.Integer({ minimum: 1 })),
  temperature: Nullable(Type.Number({ minimum: 0, maximum: 2 })),
  top_p: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  top_k: Nullable(Type.Integer({ minimum: 0 })),
  top_logprobs: Nullable(Type.Integer({ minimum: 0, maximum: 20 })),
  frequency_penalty: Nullable(Type.Number({ minimum: -2, maximum: 2 })),
  presence_penalty: Nullable(Type.Number({ minimum: -2, maximum: 2 })),
  truncation: Nullable(Type.Enum(['auto', 'disabled'])),
  safety_identifier: Nullable(Type.String({ maxLength: 256 })),
  modalities: Nullable(Type.Array(Type.Enum(['text', 'image']))),
  include: Nullable(Type.Array(Type.Enum([...includeValues]))),
  prompt_cache_options: Nullable(Type.Object({ mode: Type.Literal('explicit'), ttl: Nullable(Type.String()) })),
  cache_control: Nullable(
    Type.Object({ type: Type.Literal('ephemeral'), ttl: Type.Optional(Type.Enum(['5m', '1h'])) }),
  ),
  prompt_cache_key: Nullable(Type.String()),
  image_config: Nullable(
    Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Array(Type.Unknown())])),
  ),
  store: Nullable(Type.Boolean()),
  background: Nullable(Type.Boolean()),
  max_tool_calls: Nullable(Type.Integer({ minimum: 1, maximum: maxToolCallsLimit })),
  stop_server_tools_when: Nullable(Type.Array(StopCondition, { minItems: 1 })),
  previous_response_id: Nullable(Type.String()),
  prompt: Nullable(Type.Object({})),
  conversation: Type.Optional(Type.Unknown()),
})

export type ResponsesRequest = Static<typeof ResponsesRequestSchema>
/** The input item union with server-tool items typed by their prefix, so `type` discriminates. */
export type ResponsesInputItem =
  | Static<typeof MessageItem>
  | Static<typeof FunctionCallItem>
  | Static<typeof FunctionCallOutputItem>
  | Static<typeof ReasoningInputItem>
  | { readonly type: `openrouter:${string}` }
export type ResponsesContentPart = Static<typeof ContentPartSchema>
