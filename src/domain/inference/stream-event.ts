// Every streaming adapter emits these events and every client dialect encodes them: one union.
//
// Order: `message-start` first; then blocks, each `*-start`, any `*-delta`s, `*-end`; then at most one
// `usage-report` (cumulative totals) and `message-end`. `stream-error` is terminal: nothing follows it,
// and open blocks are left open. `index` numbers the output items of the message in start order, so the
// events fold into `CanonicalResult.output` positions.
//
// `native-frame` is not an event of the answer: in a stream passed through (the client speaks the
// upstream's format), the parser adds one per upstream frame, carrying the frame as the upstream wrote
// it beside the events it means; that format's encoder writes it with only the gateway's fields
// rewritten, every other encoder and reader ignores it.

import type { ErrorKind } from '../errors.ts'
import type { FinishReason } from './finish-reason.ts'
import type { ReasoningOrigin } from './provider-api.ts'
import type { Usage } from './usage.ts'

export type StreamEvent =
  | { readonly type: 'message-start'; readonly id: string; readonly model: string }
  | { readonly type: 'text-start'; readonly index: number }
  | { readonly type: 'text-delta'; readonly index: number; readonly delta: string }
  | { readonly type: 'text-end'; readonly index: number }
  | { readonly type: 'reasoning-start'; readonly index: number; readonly origin: ReasoningOrigin; readonly id?: string }
  | { readonly type: 'reasoning-delta'; readonly index: number; readonly delta: string }
  | {
      readonly type: 'reasoning-end'
      readonly index: number
      readonly signature?: string
      readonly encrypted_content?: string
      readonly redacted?: boolean
    }
  | { readonly type: 'tool-call-start'; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: 'tool-call-delta'; readonly index: number; readonly delta: string }
  | { readonly type: 'tool-call-end'; readonly index: number; readonly signature?: string }
  | { readonly type: 'usage-report'; readonly usage: Usage }
  | { readonly type: 'message-end'; readonly finish_reason: FinishReason; readonly native_finish_reason?: string }
  | { readonly type: 'stream-error'; readonly kind: ErrorKind; readonly message: string }
  | NativeFrame

/** One upstream SSE frame in the client's own format: its event type, its data as sent, and the data parsed when the parser read it. */
export interface NativeFrame {
  readonly type: 'native-frame'
  readonly event: string
  readonly data: string
  readonly value?: unknown
  /** Set when the parser found the data on one line and written `{"type":"<event>","sequence_number":<sequence>,` first. */
  readonly sequence?: number
}

/** A client wire format an upstream API can share, so that its streams can pass through. */
export type PassThroughFormat = 'openai-responses'
