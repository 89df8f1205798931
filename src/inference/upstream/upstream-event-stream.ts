// The canonical events of one streamed upstream answer. The body is framed (as the adapter declares) and parsed by the
// provider's adapter as it arrives; `batches()` yields the events of each upstream read together, so
// the consumer can translate them and write one chunk per read instead of one per event. Iterating
// the object itself yields the events one by one. A body that breaks off ends with a `stream-error`.
// When the stream ends (or its reader stops), the last usage it reported settles the pool credential's
// token charge (`settleCredentialTokens`). `batches(true)` reads the stream to pass it through (the
// adapter's `passThroughFormat` is the client's): each frame also comes as a `native-frame`.
import type { PassThroughFormat, StreamEvent } from '../../domain/inference/stream-event.ts'
import type { ProviderAdapter } from '../../providers/provider-adapter.ts'
import { createFramer } from '../../providers/framing.ts'
import type { UpstreamAnswer } from './upstream-transport.ts'

export class UpstreamEventStream implements AsyncIterable<StreamEvent> {
  readonly #adapter: ProviderAdapter
  readonly #answer: UpstreamAnswer
  /** The JSON body the adapter built for the upstream, before authorization added credentials (in headers). */
  readonly sentBody: Readonly<Record<string, unknown>>
  /** The client format the stream is written in, when it is one (it can then pass through). */
  readonly passThroughFormat: PassThroughFormat | undefined

  constructor(adapter: ProviderAdapter, answer: UpstreamAnswer, sentBody: Readonly<Record<string, unknown>>) {
    this.#adapter = adapter
    this.#answer = answer
    this.sentBody = sentBody
    this.passThroughFormat = adapter.passThroughFormat
  }

  /** The events of each upstream read (never an empty batch), then those of the body's end. */
  async *batches(passThrough = false): AsyncGenerator<StreamEvent[]> {
    const settle = this.#answer.settleCredentialTokens
    if (settle === undefined) {
      yield* this.#parse(passThrough)
      return
    }
    let used: number | null = null
    try {
      for await (const batch of this.#parse(passThrough)) {
        for (const event of batch)
          if (event.type === 'usage-report') used = event.usage.input_tokens + event.usage.output_tokens
        yield batch
      }
    } finally {
      if (used !== null) await settle(used)
    }
  }

  async *#parse(passThrough: boolean): AsyncGenerator<StreamEvent[]> {
    const framer = createFramer(this.#adapter.framing)
    const parser = this.#adapter.createStreamParser(passThrough && this.passThroughFormat !== undefined)
    let batch: StreamEvent[]
    try {
      for await (const chunk of this.#answer.body) {
        batch = []
        for (const frame of framer.push(chunk as Buffer)) appendAll(batch, parser.push(frame))
        if (batch.length > 0) yield batch
      }
      batch = []
      for (const frame of framer.end()) appendAll(batch, parser.push(frame))
      appendAll(batch, parser.end())
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      batch = [{ type: 'stream-error', kind: 'upstream_error', message: `The provider's stream broke off: ${message}` }]
    }
    if (batch.length > 0) yield batch
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamEvent> {
    for await (const batch of this.batches()) yield* batch
  }
}

function appendAll(target: StreamEvent[], events: readonly StreamEvent[]): void {
  for (let index = 0; index < events.length; index += 1) target.push(events[index]!)
}
