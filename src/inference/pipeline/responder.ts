// Where an inference answer goes. The HTTP routes answer the client's socket; batches and server-side
// callers collect the answer in memory. The pipeline only ever talks to this interface. The end of an
// answer (a whole JSON body, or a stream's last frames) is held until the pipeline calls `deliver()`,
// once the call's ledger row and generation record are committed: a client that saw the whole answer
// was billed for it, even if the process is killed the next instant.
import { PassThrough, type Writable } from 'node:stream'
import type { OutgoingHttpHeaders } from 'node:http'
import type { FastifyReply } from 'fastify'
import type { CollectedAnswer } from '../call/invoke-port.ts'

export interface Responder {
  /** Whether an answer (JSON, error or the start of a stream) was already given, held or not. */
  readonly isSent: boolean
  /** A whole answer; it leaves at `deliver()`. */
  sendJson(status: number, body: unknown, headers: Readonly<Record<string, string>>): void
  /**
   * Starts a 200 SSE answer with its opening frames, which leave at once; the pipeline writes the
   * rest and ends it with `endStream`.
   */
  startStream(headers: Readonly<Record<string, string>>, opening: string): Writable
  /** The stream's last frames (its terminator); they leave, and the stream ends, at `deliver()`. */
  endStream(frames: string): void
  /** Lets the held end of the answer go (and ends a started stream nobody ended). Called once, last. */
  deliver(): void
}

// The responders are classes, not object literals with a getter: on Node 20 such a literal is in
// dictionary mode, and one per request was promoted to the old generation with the reply and request
// it reaches.

/** Answers the client's socket through fastify. */
class FastifyResponder implements Responder {
  readonly #reply: FastifyReply
  #isSent = false
  #json: { status: number; body: unknown; headers: Readonly<Record<string, string>> } | null = null
  #stream: Writable | null = null
  #lastFrames = ''

  constructor(reply: FastifyReply) {
    this.#reply = reply
  }

  get isSent(): boolean {
    return this.#isSent
  }

  sendJson(status: number, body: unknown, headers: Readonly<Record<string, string>>): void {
    this.#isSent = true
    this.#json = { status, body, headers }
  }

  startStream(headers: Readonly<Record<string, string>>, opening: string): Writable {
    // The frames go straight to the socket: no intermediate stream. Fastify's own sending is
    // bypassed (hijack), so the headers set by hooks (x-request-id, rate limits) are copied here;
    // the onResponse hooks (metrics, access log) still run when the response finishes.
    this.#isSent = true
    const reply = this.#reply
    reply.hijack()
    // getHeaders() is a fresh copy; Object.assign rather than spreads, which make a new hidden class each time.
    reply.raw.writeHead(
      200,
      Object.assign(
        reply.getHeaders() as OutgoingHttpHeaders,
        { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' },
        headers,
      ),
    )
    reply.raw.write(opening)
    // Node corks the socket at a response's first write until the next tick, which comes only
    // after the pipeline has translated what the upstream's first read brought (often the whole
    // answer of a fast upstream). The client's first byte should not wait for that.
    reply.raw.socket?.uncork()
    this.#stream = reply.raw
    return reply.raw
  }

  endStream(frames: string): void {
    this.#lastFrames += frames
  }

  deliver(): void {
    const json = this.#json
    if (json !== null) {
      this.#json = null
      void this.#reply.code(json.status).headers(json.headers).send(json.body)
      return
    }
    const stream = this.#stream
    if (stream === null || stream.writableEnded) return
    if (this.#lastFrames === '') stream.end()
    else stream.end(this.#lastFrames)
  }
}

export function fastifyResponder(reply: FastifyReply): Responder {
  return new FastifyResponder(reply)
}

/** Collects the answer in memory (batches, nested calls). Read `answer()` after the pipeline returns. */
export class MemoryResponder implements Responder {
  #collected: CollectedAnswer | null = null
  #stream: PassThrough | null = null
  #sseText = ''

  get isSent(): boolean {
    return this.#collected !== null
  }

  sendJson(status: number, body: unknown, headers: Readonly<Record<string, string>>): void {
    this.#collected = { status, headers, body }
  }

  startStream(headers: Readonly<Record<string, string>>, opening: string): Writable {
    const stream = new PassThrough()
    stream.on('data', (chunk: Buffer) => (this.#sseText += chunk.toString('utf8')))
    this.#collected = { status: 200, headers, body: '' }
    this.#stream = stream
    stream.write(opening)
    return stream
  }

  /** Nobody reads the answer before the pipeline returns, so the end is not held. */
  endStream(frames: string): void {
    if (this.#stream !== null && !this.#stream.writableEnded) this.#stream.end(frames)
  }

  deliver(): void {
    if (this.#stream !== null && !this.#stream.writableEnded) this.#stream.end()
  }

  answer(): CollectedAnswer | null {
    const collected = this.#collected
    if (collected === null) return null
    return typeof collected.body === 'string' ? { ...collected, body: this.#sseText } : collected
  }
}
