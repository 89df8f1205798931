// AWS event-stream framing (Bedrock's ConverseStream): length-prefixed binary messages with prelude and
// message CRCs. This framer cuts the bytes at each message's total length; Smithy's codec decodes the
// message and checks both CRCs (a mismatch throws). A frame's `event` is its `:event-type` header, or
// its `:exception-type` with `exception` set; `data` is the payload text.
import { EventStreamCodec } from '@smithy/core/event-streams'
import { fromUtf8, toUtf8 } from '@smithy/util-utf8'
import type { UpstreamFrame } from './provider-adapter.ts'

const maxMessageSize = 16 * 1024 * 1024

export function createEventStreamFramer(): EventStreamFramer {
  return new EventStreamFramer()
}

class EventStreamFramer {
  readonly #codec = new EventStreamCodec(toUtf8, fromUtf8)
  #pending: Buffer = Buffer.alloc(0)

  push(chunk: Uint8Array | string): UpstreamFrame[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    this.#pending = this.#pending.length === 0 ? Buffer.from(bytes) : Buffer.concat([this.#pending, bytes])
    const frames: UpstreamFrame[] = []
    while (this.#pending.length >= 4) {
      const length = this.#pending.readUInt32BE(0)
      if (length < 16 || length > maxMessageSize) throw new Error(`Invalid event-stream message length ${length}`)
      if (this.#pending.length < length) break
      frames.push(toFrame(this.#codec.decode(this.#pending.subarray(0, length))))
      this.#pending = this.#pending.subarray(length)
    }
    return frames
  }

  end(): UpstreamFrame[] {
    if (this.#pending.length > 0) throw new Error('the upstream body ended inside an event-stream message')
    return []
  }
}

type Message = ReturnType<EventStreamCodec['decode']>

function toFrame(message: Message): UpstreamFrame {
  const headers = message.headers
  const body = message.body
  const data = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
  if (headers[':message-type']?.value === 'event') return { event: String(headers[':event-type']?.value ?? ''), data }
  const type = headers[':exception-type']?.value ?? headers[':error-code']?.value ?? 'error'
  return { event: String(type), data, exception: true }
}
