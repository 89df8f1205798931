// Folds a stream's events into the result a non-streaming call would have returned. Used where a
// streamed upstream answers a non-streaming client, and by tests to compare the two paths.

import { GatewayError } from '../errors.ts'
import type { FinishReason } from './finish-reason.ts'
import type { OutputItem } from './result.ts'
import type { CanonicalResult } from './result.ts'
import type { StreamEvent } from './stream-event.ts'
import { emptyUsage } from './usage.ts'
import type { Usage } from './usage.ts'

interface Draft {
  id: string
  model: string
  output: OutputItem[]
  usage: Usage
  finish?: { reason: FinishReason; native?: string }
}

export function foldStreamEvents(events: Iterable<StreamEvent>): CanonicalResult {
  const draft: Draft = { id: '', model: '', output: [], usage: emptyUsage }
  for (const event of events) applyEvent(draft, event)
  if (draft.finish === undefined)
    throw new GatewayError('upstream_error', 'The upstream stream ended without finishing the message')
  const result: CanonicalResult = {
    id: draft.id,
    model: draft.model,
    output: draft.output,
    finish_reason: draft.finish.reason,
    usage: draft.usage,
  }
  return draft.finish.native === undefined ? result : { ...result, native_finish_reason: draft.finish.native }
}

/** Message-level events update the draft; the rest build its output items. */
function applyEvent(draft: Draft, event: StreamEvent): void {
  switch (event.type) {
    case 'message-start':
      draft.id = event.id
      draft.model = event.model
      return
    case 'usage-report':
      draft.usage = event.usage
      return
    case 'message-end':
      draft.finish = {
        reason: event.finish_reason,
        ...(event.native_finish_reason === undefined ? {} : { native: event.native_finish_reason }),
      }
      return
    case 'stream-error':
      throw new GatewayError(event.kind, event.message)
    case 'native-frame':
      return
    default:
      applyItemEvent(draft.output, event)
  }
}

type ItemEvent = Exclude<
  StreamEvent,
  { type: 'message-start' | 'usage-report' | 'message-end' | 'stream-error' | 'native-frame' }
>

function applyItemEvent(items: OutputItem[], event: ItemEvent): void {
  const at = (index: number): OutputItem | undefined => items[index]
  switch (event.type) {
    case 'text-start':
      items[event.index] = { type: 'text', text: '' }
      return
    case 'reasoning-start':
      items[event.index] = {
        type: 'reasoning',
        text: '',
        origin: event.origin,
        ...(event.id === undefined ? {} : { id: event.id }),
      }
      return
    case 'tool-call-start':
      items[event.index] = { type: 'tool-call', id: event.id, name: event.name, arguments: '' }
      return
    case 'text-delta':
    case 'reasoning-delta': {
      const item = at(event.index)
      if (item?.type === 'text' || item?.type === 'reasoning')
        items[event.index] = { ...item, text: item.text + event.delta }
      return
    }
    case 'tool-call-delta': {
      const item = at(event.index)
      if (item?.type === 'tool-call') items[event.index] = { ...item, arguments: item.arguments + event.delta }
      return
    }
    case 'reasoning-end': {
      const item = at(event.index)
      if (item?.type !== 'reasoning') return
      const { type: _type, index: _index, ...rest } = event
      items[event.index] = { ...item, ...rest }
      return
    }
    case 'tool-call-end': {
      const item = at(event.index)
      if (item?.type === 'tool-call' && event.signature !== undefined)
        items[event.index] = { ...item, signature: event.signature }
      return
    }
    case 'text-end':
      return
  }
}
