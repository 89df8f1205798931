// A schema-checked Messages body -> the decoded request.

import { GatewayError } from '../../domain/errors.ts'
import type { FunctionTool, ReasoningConfig, ToolChoice } from '../../domain/inference/call.ts'
import { collectModels, decodeCommonOptions } from '../decode-request-options.ts'
import type { DecodedRequest } from '../dialect.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import { usedParameters } from '../used-parameters.ts'
import { decodeMessages } from './decode-messages.ts'
import { withCacheControl } from '../decode-cache-control.ts'
import type { MessagesRequest } from './request-schema.ts'

const notKeptMessage =
  'the gateway keeps no server-side state between requests; send the whole conversation in `messages`'

export function decodeMessagesRequest(body: MessagesRequest): DecodedRequest {
  refuseStatefulFields(body)
  const user = body.user ?? body.metadata?.user_id ?? undefined
  const choice = body.tool_choice
  const call = dropUndefined({
    messages: decodeMessages(body),
    tools: decodeMessagesTools(body.tools),
    tool_choice: choice === undefined ? undefined : toToolChoice(choice),
    parallel_tool_calls: choice?.disable_parallel_tool_use === true ? false : undefined,
    max_output_tokens: body.max_tokens,
    temperature: body.temperature,
    top_p: body.top_p,
    top_k: body.top_k,
    stop: body.stop_sequences === undefined || body.stop_sequences.length === 0 ? undefined : body.stop_sequences,
    reasoning: toReasoning(body.thinking),
    user,
    service_tier: body.service_tier === 'standard_only' ? 'default' : body.service_tier,
    stream: body.stream === true,
  }) as DecodedRequest['call']
  const { metadata: _metadata, service_tier: _tier, ...common } = body
  const options = decodeCommonOptions(common, {
    user,
    service_tier: body.service_tier === undefined ? undefined : body.service_tier === 'auto' ? 'auto' : 'default',
  })
  return {
    call,
    models: collectModels(body),
    stream: body.stream === true,
    options,
    usedParameters: usedParameters(call),
    echo: {},
    serverTools: [],
    serverToolSettings: {},
  }
}

/** Fields naming state kept upstream between requests (a thread, a code-execution container) are refused. */
function refuseStatefulFields(body: MessagesRequest): void {
  if (body.thread != null) throw new GatewayError('invalid_request', `thread is not supported: ${notKeptMessage}`)
  if (body.container != null)
    throw new GatewayError(
      'invalid_request',
      `container (a server-side code-execution container) is not supported: ${notKeptMessage}`,
    )
}

/** Anthropic tools -> canonical function tools; none when the list is absent or empty. */
export function decodeMessagesTools(tools: MessagesRequest['tools']): FunctionTool[] | undefined {
  if (tools === undefined || tools.length === 0) return undefined
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    ...(tool.description === undefined ? {} : { description: tool.description }),
    parameters: { ...tool.input_schema },
    ...withCacheControl(tool.cache_control),
  }))
}

function toToolChoice(choice: NonNullable<MessagesRequest['tool_choice']>): ToolChoice {
  if (choice.type === 'tool') return { name: choice.name }
  return choice.type === 'any' ? 'required' : choice.type
}

function toReasoning(thinking: MessagesRequest['thinking']): ReasoningConfig | undefined {
  if (thinking === undefined) return undefined
  return thinking.type === 'enabled' ? { enabled: true, max_tokens: thinking.budget_tokens } : { enabled: false }
}
