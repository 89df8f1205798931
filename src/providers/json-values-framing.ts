// Framing for bodies that are a sequence of JSON values: NDJSON (one value per line) and a JSON array
// streamed element by element (Vertex's streamGenerateContent without `alt=sse`). The framer tracks
// nesting and strings only, never parses; each frame is one value's text, parsed by the adapter.
import { StringDecoder } from 'node:string_decoder'
import type { UpstreamFrame } from './provider-adapter.ts'

const maxValueSize = 16 * 1024 * 1024

export function createJsonValuesFramer(kind: 'ndjson' | 'json-array'): JsonValuesFramer {
  return new JsonValuesFramer(kind)
}

class JsonValuesFramer {
  readonly #kind: 'ndjson' | 'json-array'
  readonly #decoder = new StringDecoder('utf8')
  #pending = ''
  #depth = 0
  #inString = false
  #escaped = false
  /** json-array: the opening `[` was read. */
  #opened = false

  constructor(kind: 'ndjson' | 'json-array') {
    this.#kind = kind
  }

  push(chunk: Uint8Array | string): UpstreamFrame[] {
    return this.#scan(typeof chunk === 'string' ? chunk : this.#decoder.write(chunk))
  }

  end(): UpstreamFrame[] {
    const frames = this.#scan(this.#decoder.end() + (this.#kind === 'ndjson' ? '\n' : ''))
    if (this.#depth !== 0 || this.#inString || this.#pending.trim() !== '')
      throw new Error('the upstream body ended inside a JSON value')
    return frames
  }

  #scan(text: string): UpstreamFrame[] {
    const frames: UpstreamFrame[] = []
    for (const character of text) {
      if (this.#kind === 'json-array' && !this.#opened) {
        if (character === '[') this.#opened = true
        continue
      }
      if (this.#inString) {
        this.#pending += character
        if (this.#escaped) this.#escaped = false
        else if (character === '\\') this.#escaped = true
        else if (character === '"') this.#inString = false
      } else if (this.#depth === 0 && this.#isSeparator(character)) {
        this.#emit(frames)
      } else {
        this.#pending += character
        if (character === '"') this.#inString = true
        else if (character === '{' || character === '[') this.#depth += 1
        else if (character === '}' || character === ']') this.#depth -= 1
      }
      if (this.#pending.length > maxValueSize) throw new Error('Upstream JSON value too large')
    }
    return frames
  }

  /** Top level: a newline ends an NDJSON value; a comma or the closing bracket ends an array element. */
  #isSeparator(character: string): boolean {
    return this.#kind === 'ndjson' ? character === '\n' : character === ',' || character === ']'
  }

  #emit(frames: UpstreamFrame[]): void {
    const value = this.#pending.trim()
    this.#pending = ''
    if (value !== '') frames.push({ data: value })
  }
}
