// A schema-checked Responses body -> the decoded request: canonical call, models, options, echo.

import { GatewayError } from '../../domain/errors.ts'
import type { FunctionTool, ReasoningConfig, ResponseFormat, ToolChoice } from '../../domain/inference/call.ts'
import type { Message } from '../../domain/inference/message.ts'
import { defaultMaxToolCalls, serverToolNames, serverToolPrefix } from '../../domain/inference/request-options.ts'
import type {
  RequestOptions,
  ServerToolName,
  StopServerToolsCondition,
} from '../../domain/inference/request-options.ts'
import { collectModels, decodeCommonOptions, effortReasoning, upstreamServiceTiers } from '../decode-request-options.ts'
import type { DecodedRequest } from '../dialect.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import { usedParameters } from '../used-parameters.ts'
import { decodeInput } from './decode-input.ts'
import type { ResponsesRequest } from './request-schema.ts'

type RequestTool = NonNullable<ResponsesRequest['tools']>[number]
type FunctionToolInput = Extract<RequestTool, { type: 'function' }>

const notStoredMessage = 'responses are not stored; send the full conversation history in `input`'

export function decodeResponsesRequest(body: ResponsesRequest): DecodedRequest {
  refuseStatefulFields(body)
  const { functionTools, serverTools, serverToolSettings } = splitTools(body.tools ?? [])
  const messages: Message[] = [
    ...(body.instructions == null ? [] : [{ role: 'system' as const, content: body.instructions }]),
    ...decodeInput(body.input),
  ]
  const call = dropUndefined({
    messages,
    tools: functionTools.length === 0 ? undefined : functionTools,
    tool_choice: body.tool_choice == null ? undefined : toToolChoice(body.tool_choice),
    parallel_tool_calls: body.parallel_tool_calls ?? undefined,
    max_output_tokens: body.max_output_tokens ?? undefined,
    temperature: body.temperature ?? undefined,
    top_p: body.top_p ?? undefined,
    top_k: body.top_k ?? undefined,
    frequency_penalty: body.frequency_penalty ?? undefined,
    presence_penalty: body.presence_penalty ?? undefined,
    top_logprobs: body.top_logprobs ?? undefined,
    response_format: toResponseFormat(body.text?.format ?? undefined),
    reasoning: toReasoning(body.reasoning ?? undefined),
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
    echo: echoFields(body),
    serverTools,
    serverToolSettings,
  }
}

function refuseStatefulFields(body: ResponsesRequest): void {
  if (body.previous_response_id != null)
    throw new GatewayError('invalid_request', `previous_response_id is not supported: ${notStoredMessage}`)
  if (body.conversation != null)
    throw new GatewayError(
      'invalid_request',
      `conversation (a stored conversation) is not supported: ${notStoredMessage}`,
    )
  if (body.prompt != null)
    throw new GatewayError(
      'invalid_request',
      `prompt (a stored prompt reference) is not supported: ${notStoredMessage}`,
    )
  if (body.store === true)
    throw new GatewayError('invalid_request', `store: only false is accepted: ${notStoredMessage}`)
  if (body.background === true)
    throw new GatewayError('invalid_request', `background: only false is accepted: ${notStoredMessage}`)
}

interface SplitTools {
  readonly functionTools: FunctionTool[]
  readonly serverTools: string[]
  readonly serverToolSettings: Record<string, Readonly<Record<string, unknown>>>
}

function splitTools(tools: readonly RequestTool[]): SplitTools {
  const split: SplitTools = { functionTools: [], serverTools: [], serverToolSettings: {} }
  tools.forEach((tool, index) => {
    if (tool.type === 'function') {
      split.functionTools.push(toFunctionTool(tool as FunctionToolInput))
      return
    }
    const name = tool.type.slice(serverToolPrefix.length)
    if (!serverToolNames.includes(name as ServerToolName)) {
      throw new GatewayError(
        'invalid_request',
        `tools[${index}].type: unknown server tool "${tool.type}"; known: ${serverToolNames.map((known) => serverToolPrefix + known).join(', ')}`,
      )
    }
    const { type: _type, ...settings } = tool as Record<string, unknown>
    if (!split.serverTools.includes(tool.type)) split.serverTools.push(tool.type)
    split.serverToolSettings[tool.type] = settings
  })
  return split
}

function toFunctionTool(tool: FunctionToolInput): FunctionTool {
  return dropUndefined({
    type: 'function' as const,
    name: tool.name,
    description: tool.description ?? undefined,
    parameters: tool.parameters ?? undefined,
    strict: tool.strict ?? undefined,
  }) as FunctionTool
}

function toToolChoice(choice: NonNullable<ResponsesRequest['tool_choice']>): ToolChoice {
  return typeof choice === 'string' ? choice : { name: choice.name }
}

function toResponseFormat(format: NonNullable<ResponsesRequest['text']>['format']): ResponseFormat | undefined {
  if (format == null || format.type === 'text') return undefined
  if (format.type === 'json_object') return { type: 'json_object' }
  return dropUndefined({
    type: 'json_schema' as const,
    name: format.name,
    schema: format.schema,
    strict: format.strict ?? undefined,
    description: format.description ?? undefined,
  }) as ResponseFormat
}

function toReasoning(reasoning: NonNullable<ResponsesRequest['reasoning']> | undefined): ReasoningConfig | undefined {
  if (reasoning === undefined) return undefined
  const fromEffort = reasoning.effort == null ? {} : effortReasoning(reasoning.effort)
  const config = dropUndefined({
    ...fromEffort,
    summary: reasoning.summary ?? undefined,
    max_tokens: reasoning.max_tokens ?? undefined,
    enabled: reasoning.enabled ?? fromEffort.enabled,
  }) as ReasoningConfig
  return Object.keys(config).length === 0 ? { enabled: true } : config
}

function decodeOptions(body: ResponsesRequest): RequestOptions {
  const promptCache = dropUndefined({
    options: body.prompt_cache_options ?? undefined,
    cache_control: body.cache_control ?? undefined,
    key: body.prompt_cache_key ?? undefined,
  })
  return decodeCommonOptions(body, {
    include: body.include ?? undefined,
    modalities: body.modalities ?? undefined,
    image_config: body.image_config ?? undefined,
    prompt_cache: Object.keys(promptCache).length === 0 ? undefined : promptCache,
    max_tool_calls: body.max_tool_calls ?? defaultMaxToolCalls,
    stop_server_tools_when: (body.stop_server_tools_when ?? undefined) as
      readonly StopServerToolsCondition[] | undefined,
  })
}

/** The request fields the Response object repeats back. */
function echoFields(body: ResponsesRequest): Record<string, unknown> {
  return {
    instructions: body.instructions ?? null,
    metadata: body.metadata ?? {},
    tools: body.tools ?? [],
    tool_choice: body.tool_choice ?? 'auto',
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    temperature: body.temperature ?? null,
    top_p: body.top_p ?? null,
    presence_penalty: body.presence_penalty ?? null,
    frequency_penalty: body.frequency_penalty ?? null,
    top_logprobs: body.top_logprobs ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: body.max_tool_calls ?? null,
    text: body.text ?? { format: { type: 'text' } },
    reasoning: body.reasoning ?? null,
    truncation: body.truncation ?? 'disabled',
    service_tier: body.service_tier ?? 'auto',
    user: body.user ?? null,
    safety_identifier: body.safety_identifier ?? null,
    prompt_cache_key: body.prompt_cache_key ?? null,
    store: false,
    background: false,
    previous_response_id: null,
  }
}
