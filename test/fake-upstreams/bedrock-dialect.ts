// The fake's Bedrock Converse wire: `/model/{id}/converse` answers JSON, `/model/{id}/converse-stream`
// binary AWS event-stream messages (prelude and message CRCs, as Smithy's codec writes them). Requests
// are authenticated by verifying their SigV4 signature (sigv4-verifier.ts).
import { EventStreamCodec } from '@smithy/core/event-streams'
import { fromUtf8, toUtf8 } from '@smithy/util-utf8'
import type { FakeDialect } from './fake-dialect.ts'
import type { CompletionPlan } from './scripted-reply.ts'

const stopReasons = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'content_filtered',
}
const codec = new EventStreamCodec(toUtf8, fromUtf8)

function wireUsage(plan: CompletionPlan): Record<string, number> {
  const usage = plan.usage
  const input = usage.input_tokens - usage.cached_input_tokens - usage.cache_write_tokens
  return {
    inputTokens: input,
    outputTokens: usage.output_tokens,
    totalTokens: usage.input_tokens + usage.output_tokens,
    cacheReadInputTokens: usage.cached_input_tokens,
    cacheWriteInputTokens: usage.cache_write_tokens,
  }
}

export function eventMessage(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: 'event' },
      ':event-type': { type: 'string', value: eventType },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: fromUtf8(JSON.stringify(payload)),
  })
}

function content(plan: CompletionPlan): unknown[] {
  const blocks: unknown[] = []
  if (plan.reasoningPieces.length > 0)
    blocks.push({
      reasoningContent: {
        reasoningText: { text: plan.reasoningPieces.join(''), signature: plan.reasoningSignature ?? 'fake-signature' },
      },
    })
  if (plan.textPieces.length > 0) blocks.push({ text: plan.textPieces.join('') })
  for (const call of plan.toolCalls)
    blocks.push({
      toolUse: { toolUseId: call.id, name: call.name, input: JSON.parse(call.argumentPieces.join('') || '{}') },
    })
  return blocks
}

function streamEvents(plan: CompletionPlan): [string, unknown][] {
  const events: [string, unknown][] = [['messageStart', { role: 'assistant' }]]
  let block = 0
  if (plan.reasoningPieces.length > 0) {
    for (const text of plan.reasoningPieces)
      events.push(['contentBlockDelta', { contentBlockIndex: block, delta: { reasoningContent: { text } } }])
    const signature = plan.reasoningSignature ?? 'fake-signature'
    events.push(['contentBlockDelta', { contentBlockIndex: block, delta: { reasoningContent: { signature } } }])
    events.push(['contentBlockStop', { contentBlockIndex: block++ }])
  }
  if (plan.textPieces.length > 0) {
    for (const text of plan.textPieces)
      events.push(['contentBlockDelta', { contentBlockIndex: block, delta: { text } }])
    events.push(['contentBlockStop', { contentBlockIndex: block++ }])
  }
  for (const call of plan.toolCalls) {
    events.push([
      'contentBlockStart',
      { contentBlockIndex: block, start: { toolUse: { toolUseId: call.id, name: call.name } } },
    ])
    for (const input of call.argumentPieces)
      events.push(['contentBlockDelta', { contentBlockIndex: block, delta: { toolUse: { input } } }])
    events.push(['contentBlockStop', { contentBlockIndex: block++ }])
  }
  events.push(['messageStop', { stopReason: stopReasons[plan.finish] }])
  events.push(['metadata', { usage: wireUsage(plan), metrics: { latencyMs: 12 } }])
  return events
}

const errorTypes: Readonly<Record<number, string>> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
}

export const bedrockDialect: FakeDialect = {
  basePath: '',
  streamContentType: 'application/vnd.amazon.eventstream',
  route(path) {
    const match = /^\/model\/([^/]+)\/(converse|converse-stream)$/.exec(path)
    if (match === null) return undefined
    return { kind: 'completion', stream: match[2] === 'converse-stream', model: decodeURIComponent(match[1]!) }
  },
  completionJson: (plan) => ({
    output: { message: { role: 'assistant', content: content(plan) } },
    stopReason: stopReasons[plan.finish],
    usage: wireUsage(plan),
    metrics: { latencyMs: 12 },
  }),
  completionFrames: () => {
    throw new Error('Bedrock streams binary event-stream messages: see binaryFrames')
  },
  binaryFrames: (plan) => streamEvents(plan).map(([type, payload]) => eventMessage(type, payload)),
  errorBody: (status, message, errorType) => ({
    message,
    __type: errorType ?? errorTypes[status] ?? 'InternalServerException',
  }),
  errorHeaders: (status, errorType) => ({
    'x-amzn-errortype': `${errorType ?? errorTypes[status] ?? 'InternalServerException'}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
  }),
  embeddingsJson: () => {
    throw new Error('Bedrock Converse has no embeddings route')
  },
}
