// OpenRouter's `reasoning_details` on chat messages <-> canonical reasoning items. The `format` names
// the API that produced the item, so signatures and encrypted content survive a round trip through a
// Chat Completions client: `reasoning.text` carries text and signature, `reasoning.summary` an OpenAI
// summary, `reasoning.encrypted` OpenAI encrypted content or Anthropic redacted thinking.

import type { ReasoningItem } from '../../domain/inference/message.ts'
import type { ReasoningOrigin } from '../../domain/inference/provider-api.ts'
import { dropUndefined } from '../../domain/drop-undefined.ts'
import type { ReasoningDetail } from './request-schema.ts'

export const reasoningFormats: Readonly<Record<ReasoningOrigin, string>> = {
  'openai-chat': 'unknown',
  'openai-responses': 'openai-responses-v1',
  anthropic: 'anthropic-claude-v1',
  gemini: 'google-gemini-v1',
}

function originOf(format: string | null | undefined): ReasoningOrigin {
  const found = (Object.entries(reasoningFormats) as [ReasoningOrigin, string][]).find(([, name]) => name === format)
  return found === undefined || format === 'unknown' ? 'openai-chat' : found[0]
}

export function decodeReasoningDetails(details: readonly ReasoningDetail[]): ReasoningItem[] {
  const items: ReasoningItem[] = []
  for (const detail of details) {
    const origin = originOf(detail.format)
    const id = detail.id ?? undefined
    const previous = items.at(-1)
    if (detail.type === 'reasoning.encrypted' && previous !== undefined && id !== undefined && previous.id === id) {
      items[items.length - 1] = { ...previous, encrypted_content: detail.data }
      continue
    }
    const fields =
      detail.type === 'reasoning.text'
        ? { text: detail.text ?? '', signature: detail.signature ?? undefined }
        : detail.type === 'reasoning.summary'
          ? { text: detail.summary }
          : { text: '', encrypted_content: detail.data, redacted: origin === 'anthropic' ? true : undefined }
    items.push(dropUndefined({ type: 'reasoning' as const, ...fields, id, origin }) as ReasoningItem)
  }
  return items
}

export function encodeReasoningDetails(item: Omit<ReasoningItem, 'type'>, index: number): Record<string, unknown>[] {
  const origin = item.origin ?? 'openai-chat'
  const common = { format: reasoningFormats[origin], index, ...(item.id === undefined ? {} : { id: item.id }) }
  if (item.redacted === true || (origin === 'anthropic' && item.encrypted_content !== undefined && item.text === '')) {
    return [{ type: 'reasoning.encrypted', data: item.encrypted_content ?? '', ...common }]
  }
  if (origin === 'openai-responses') {
    const summary = item.text === '' ? [] : [{ type: 'reasoning.summary', summary: item.text, ...common }]
    const encrypted =
      item.encrypted_content === undefined
        ? []
        : [{ type: 'reasoning.encrypted', data: item.encrypted_content, ...common }]
    return [...summary, ...encrypted]
  }
  return [dropUndefined({ type: 'reasoning.text', text: item.text, signature: item.signature, ...common })]
}
