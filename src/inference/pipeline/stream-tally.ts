// Reads a stream's events as they pass to the client: what was produced, the usage the upstream
// reported, how it ended. A stream cut short (client gone, upstream broke off) still has a tally, so
// the tokens produced so far can be billed and recorded.
import type { ErrorKind } from '../../domain/errors.ts'
import type { FinishReason } from '../../domain/inference/finish-reason.ts'
import type { StreamEvent } from '../../domain/inference/stream-event.ts'
import type { Usage } from '../../domain/inference/usage.ts'
import type { Tokenizer } from '../tokens/load-tokenizer.ts'

export class StreamTally {
  upstreamId: string | null = null
  text = ''
  reasoning = ''
  toolArguments = ''
  usage: Usage | null = null
  finishReason: FinishReason | null = null
  nativeFinishReason: string | null = null
  error: { kind: ErrorKind; message: string } | null = null
  firstTokenAt: number | null = null

  add(event: StreamEvent, now: number): void {
    switch (event.type) {
      case 'message-start':
        this.upstreamId = event.id
        return
      case 'text-delta':
        this.#produced(now)
        this.text += event.delta
        return
      case 'reasoning-delta':
        this.#produced(now)
        this.reasoning += event.delta
        return
      case 'tool-call-delta':
        this.#produced(now)
        this.toolArguments += event.delta
        return
      case 'usage-report':
        this.usage = event.usage
        return
      case 'message-end':
        this.finishReason = event.finish_reason
        this.nativeFinishReason = event.native_finish_reason ?? null
        return
      case 'stream-error':
        this.error = { kind: event.kind, message: event.message }
        return
      default:
        return
    }
  }

  /** Output tokens when the upstream never reported usage: the text, reasoning and tool arguments produced, counted. */
  countOutputTokens(tokenizer: Tokenizer): number {
    return tokenizer.count(this.text) + tokenizer.count(this.reasoning) + tokenizer.count(this.toolArguments)
  }

  #produced(now: number): void {
    if (this.firstTokenAt === null) this.firstTokenAt = now
  }
}
