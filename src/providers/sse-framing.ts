// Server-sent-event framing, separate from meaning: raw upstream chunks in, whole events out. Safe
// against any chunk split, including inside a multi-byte UTF-8 character or between `\r` and `\n`.

import { createParser } from 'eventsource-parser'
import type { EventSourceMessage } from 'eventsource-parser'

/** One SSE event as adapters see it; `event` is absent when the frame has no `event:` line. */
export interface SseEvent {
  readonly event?: string
  readonly data: string
}

export interface SseFramer {
  /** Feeds one chunk; returns the events it completed. */
  push(chunk: Uint8Array | string): SseEvent[]
  /** The upstream closed: flushes a final event that lacked its blank line. */
  end(): SseEvent[]
}

export interface SseFramerOptions {
  /** Largest event (in characters) buffered before the framer fails; default 16 MiB. */
  readonly maxEventSize?: number
}

export function createSseFramer(options: SseFramerOptions = {}): SseFramer {
  const decoder = new TextDecoder('utf-8')
  let completed: SseEvent[] = []
  let failure: Error | undefined
  const parser = createParser({
    maxBufferSize: options.maxEventSize ?? 16 * 1024 * 1024,
    onEvent: (message: EventSourceMessage) => {
      completed.push(message.event === undefined ? { data: message.data } : { event: message.event, data: message.data })
    },
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') failure = error
    },
  })
  const take = (): SseEvent[] => {
    if (failure !== undefined) throw new Error(`Upstream SSE event too large: ${failure.message}`)
    const events = completed
    completed = []
    return events
  }
  return {
    push(chunk) {
      parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }))
      return take()
    },
    end() {
      parser.feed(decoder.decode() + '\n\n')
      return take()
    },
  }
}
