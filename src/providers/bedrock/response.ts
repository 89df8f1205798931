// Converse answer -> canonical result. Bedrock's body carries no id or model: the result names the
// API. Usage: `inputTokens` excludes cache reads and writes, which the canonical input counts in.
import { GatewayError } from '../../domain/errors.ts'
import type { CanonicalResult, OutputItem } from '../../domain/inference/result.ts'
import { makeUsage, type Usage } from '../../domain/inference/usage.ts'
import { mapConverseStopReason } from './finish-reason.ts'
import type { ConverseOutputBlock, ConverseResponse, ConverseUsage } from './wire.ts'

/** The id a Bedrock answer is reported under: Converse gives none in its body. */
export const converseResultId = 'bedrock-converse'

export function parseConverseResponse(body: unknown): CanonicalResult {
  const response = body as ConverseResponse | null
  const content = response?.output?.message?.content
  if (!Array.isArray(content))
    throw new GatewayError('upstream_error', 'Bedrock returned a Converse answer without output.message.content')
  const finish = mapConverseStopReason(response?.stopReason)
  return {
    id: converseResultId,
    model: '',
    output: content.flatMap(toOutput),
    finish_reason: finish,
    ...(response?.stopReason === undefined ? {} : { native_finish_reason: response.stopReason }),
    usage: toUsage(response?.usage),
  }
}

function toOutput(block: ConverseOutputBlock): OutputItem[] {
  if (typeof block.text === 'string') return [{ type: 'text', text: block.text }]
  if (block.toolUse !== undefined)
    return [
      {
        type: 'tool-call',
        id: block.toolUse.toolUseId ?? '',
        name: block.toolUse.name ?? '',
        arguments: JSON.stringify(block.toolUse.input ?? {}),
      },
    ]
  const reasoning = block.reasoningContent
  if (reasoning?.redactedContent !== undefined)
    return [
      {
        type: 'reasoning',
        text: '',
        encrypted_content: reasoning.redactedContent,
        redacted: true,
        origin: 'anthropic',
      },
    ]
  if (reasoning?.reasoningText !== undefined) {
    const { text, signature } = reasoning.reasoningText
    return [
      signature === undefined
        ? { type: 'reasoning', text: text ?? '', origin: 'anthropic' }
        : { type: 'reasoning', text: text ?? '', signature, origin: 'anthropic' },
    ]
  }
  return []
}

export function toUsage(usage: ConverseUsage | undefined): Usage {
  const cacheRead = usage?.cacheReadInputTokens ?? 0
  const cacheWrite = usage?.cacheWriteInputTokens ?? 0
  return makeUsage({
    input_tokens: (usage?.inputTokens ?? 0) + cacheRead + cacheWrite,
    output_tokens: usage?.outputTokens ?? 0,
    cached_input_tokens: cacheRead,
    cache_write_tokens: cacheWrite,
  })
}
