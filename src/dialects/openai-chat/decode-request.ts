// A schema-checked Chat Completions body -> the decoded request.

import type { FunctionTool, ReasoningConfig, ResponseFormat, ToolChoice } from '../../domain/inference/call.ts'
import type { RequestOptions } from '../../domain/inference/request-options.ts'
import { collectModels, decodeCommonOptions, effortReasoning, upstreamServiceTiers } from '../decode-request-options.ts'
import type { DecodedRequest } from '../dialect.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import { usedParameters } from '../used-parameters.ts'
import { decodeMessages } from './decode-messages.ts'
import type { ChatRequest } from './request-schema.ts'

export function decodeChatRequest(body: ChatRequest): DecodedRequest {
  const call = dropUndefined({
    messages: decodeMessages(body.messages),
    tools: body.tools == null || body.tools.length === 0 ? undefined : body.tools.map(toFunctionTool),
    tool_choice: body.tool_choice == null ? undefined : toToolChoice(body.tool_choice),
    parallel_tool_calls: body.parallel_tool_calls ?? undefined,
    max_output_tokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    top_p: body.top_p ?? undefined,
    top_k: body.top_k ?? undefined,
    frequency_penalty: body.frequency_penalty ?? undefined,
    presence_penalty: body.presence_penalty ?? undefined,
    seed: body.seed ?? undefined,
    stop: body.stop == null ? undefined : typeof body.stop === 'string' ? [body.stop] : body.stop,
    response_format: toResponseFormat(body.response_format ?? undefined),
    reasoning: toReasoning(body),
    logprobs: body.logprobs ?? undefined,
    top_logprobs: body.top_logprobs ?? undefined,
    user: body.user ?? undefined,
    service_tier: body.service_tier == null ? undefined : upstreamServiceTiers[body.service_tier],
    stream: body.stream === true,
  }) as DecodedRequest['call']
  return {
    call,
    models: collectModels(body),
    stream: body.stream === true,
    options: decodeOptions(body),
    usedParameters: usedParameters(call),
    echo: {},
    serverTools: [],
    serverToolSettings: {},
  }
}

type ToolInput = NonNullable<ChatRequest['tools']>[number]

function toFunctionTool(tool: ToolInput): FunctionTool {
  const { name, description, parameters, strict } = tool.function
  return dropUndefined({
    type: 'function' as const,
    name,
    description: description ?? undefined,
    parameters: parameters ?? undefined,
    strict: strict ?? undefined,
  }) as FunctionTool
}

function toToolChoice(choice: NonNullable<ChatRequest['tool_choice']>): ToolChoice {
  return typeof choice === 'string' ? choice : { name: choice.function.name }
}

function toResponseFormat(format: ChatRequest['response_format']): ResponseFormat | undefined {
  if (format == null || format.type === 'text') return undefined
  if (format.type === 'json_object') return { type: 'json_object' }
  const { name, schema, strict, description } = format.json_schema
  return dropUndefined({
    type: 'json_schema' as const,
    name,
    schema: schema ?? {},
    strict: strict ?? undefined,
    description: description ?? undefined,
  }) as ResponseFormat
}

/** `reasoning` wins over the `reasoning_effort` shorthand; `include_reasoning: false` turns it off. */
function toReasoning(body: ChatRequest): ReasoningConfig | undefined {
  const reasoning = body.reasoning ?? undefined
  if (reasoning === undefined) {
    if (body.reasoning_effort != null) return effortReasoning(body.reasoning_effort)
    if (body.include_reasoning != null) return { enabled: body.include_reasoning }
    return undefined
  }
  const fromEffort = reasoning.effort == null ? {} : effortReasoning(reasoning.effort)
  const config = dropUndefined({
    ...fromEffort,
    max_tokens: reasoning.max_tokens ?? undefined,
    summary: reasoning.summary ?? undefined,
    enabled: reasoning.enabled ?? fromEffort.enabled,
  }) as ReasoningConfig
  return Object.keys(config).length === 0 ? { enabled: true } : config
}

function decodeOptions(body: ChatRequest): RequestOptions {
  return decodeCommonOptions(body, {
    transforms: body.transforms ?? undefined,
    exclude_reasoning: body.reasoning?.exclude === true ? true : undefined,
    stream_options: body.stream_options ?? undefined,
  })
}
