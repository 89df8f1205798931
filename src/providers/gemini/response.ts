// generateContent JSON -> canonical result. Adjacent text parts form one text item and adjacent thought
// parts one reasoning item; function calls get an id when Gemini gives none.

import { GatewayError } from '../../domain/errors.ts'
import type { CanonicalResult, OutputItem } from '../../domain/inference/result.ts'
import { makeUsage } from '../../domain/inference/usage.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import { mapGeminiFinishReason } from './finish-reason.ts'
import type { GeminiPart, GeminiResponse, GeminiUsageMetadata } from './wire.ts'

export function parseGeminiResponse(body: unknown): CanonicalResult {
  const response = body as GeminiResponse | null
  const candidate = response?.candidates?.[0]
  const blocked = response?.promptFeedback?.blockReason
  if (response === null || typeof response !== 'object' || (candidate === undefined && blocked === undefined)) {
    throw new GatewayError('upstream_error', 'Gemini returned a response without candidates')
  }
  const id = response.responseId ?? ''
  const output: OutputItem[] = []
  for (const part of candidate?.content?.parts ?? []) appendPart(output, part, () => toolCallId(id, output.length))
  const hasToolCalls = output.some((item) => item.type === 'tool-call')
  const native = candidate?.finishReason ?? blocked
  const finish = candidate === undefined ? 'content_filter' : mapGeminiFinishReason(native, hasToolCalls)
  const result: CanonicalResult = {
    id,
    model: response.modelVersion ?? '',
    output,
    finish_reason: finish,
    usage: toUsage(response.usageMetadata),
  }
  return native === undefined ? result : { ...result, native_finish_reason: native }
}

/** Gemini's function calls may lack ids; the position in the output makes one unique per response. */
export function toolCallId(responseId: string, position: number): string {
  return `call_${responseId}_${position}`
}

function appendPart(output: OutputItem[], part: GeminiPart, makeId: () => string): void {
  const last = output.at(-1)
  if (part.functionCall !== undefined) {
    const call = part.functionCall
    const signature = part.thoughtSignature === undefined ? {} : { signature: part.thoughtSignature }
    output.push({
      type: 'tool-call',
      id: call.id ?? makeId(),
      name: call.name,
      arguments: JSON.stringify(call.args ?? {}),
      ...signature,
    })
  } else if (part.thought === true) {
    const signature = part.thoughtSignature ?? (last?.type === 'reasoning' ? last.signature : undefined)
    const text = (last?.type === 'reasoning' ? last.text : '') + (part.text ?? '')
    const item: OutputItem = {
      type: 'reasoning',
      text,
      origin: 'gemini',
      ...(signature === undefined ? {} : { signature }),
    }
    if (last?.type === 'reasoning') output[output.length - 1] = item
    else output.push(item)
  } else if (part.text !== undefined) {
    if (last?.type === 'text') output[output.length - 1] = { type: 'text', text: last.text + part.text }
    else output.push({ type: 'text', text: part.text })
  }
}

/** Gemini's candidatesTokenCount leaves thoughts out; the canonical output count includes them. */
export function toUsage(usage: GeminiUsageMetadata | undefined): Usage {
  const thoughts = usage?.thoughtsTokenCount ?? 0
  return makeUsage({
    input_tokens: (usage?.promptTokenCount ?? 0) + (usage?.toolUsePromptTokenCount ?? 0),
    output_tokens: (usage?.candidatesTokenCount ?? 0) + thoughts,
    cached_input_tokens: usage?.cachedContentTokenCount ?? 0,
    reasoning_tokens: thoughts,
    total_tokens: usage?.totalTokenCount,
  })
}
