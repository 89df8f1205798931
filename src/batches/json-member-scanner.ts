// Splits a JSON object body into its top-level members as text arrives, and the members of one array
// member (`requests`) into its elements, without building the whole document: each member or element
// is handed over as soon as it is complete, so a body of 50,000 lines is never held as a parsed tree.
// Only the structure is scanned here (strings, nesting, commas); each piece is then parsed by JSON.parse.
import { GatewayError } from '../domain/errors.ts'

export interface MemberScannerHandlers {
  /** A complete top-level member other than the streamed array. */
  onMember(key: string, value: unknown): void
  /** The streamed array member opens (its earlier siblings have all been reported). */
  onArrayStart(): void
  /** One element of the streamed array, in order. */
  onElement(value: unknown, index: number): void
}

const quote = 0x22
const backslash = 0x5c
const comma = 0x2c
const openBrace = 0x7b
const closeBrace = 0x7d
const openBracket = 0x5b
const closeBracket = 0x5d

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09
}

function malformed(detail: string): GatewayError {
  return new GatewayError('invalid_request', `Malformed JSON body: ${detail}`)
}

function parsePiece(text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw malformed(`${what}: ${(error as Error).message}`)
  }
}

export class JsonMemberScanner {
  readonly #arrayKey: string
  readonly #arrayKeyPattern: RegExp
  readonly #handlers: MemberScannerHandlers
  #depth = 0
  #inString = false
  #isEscaped = false
  #isStarted = false
  #isFinished = false
  #inArray = false
  #hasArray = false
  #elementCount = 0
  #buffer = ''

  constructor(arrayKey: string, handlers: MemberScannerHandlers) {
    this.#arrayKey = arrayKey
    this.#arrayKeyPattern = new RegExp(`^\\s*"${arrayKey}"\\s*:\\s*$`)
    this.#handlers = handlers
  }

  push(chunk: string): void {
    let start = 0
    for (let index = 0; index < chunk.length; index++) {
      const code = chunk.charCodeAt(index)
      if (this.#inString) {
        if (this.#isEscaped) this.#isEscaped = false
        else if (code === backslash) this.#isEscaped = true
        else if (code === quote) this.#inString = false
        continue
      }
      if (this.#depth === 0) {
        if (isWhitespace(code)) continue
        if (code !== openBrace || this.#isStarted)
          throw malformed(
            this.#isStarted ? 'unexpected text after the top-level object' : 'the body must be a JSON object',
          )
        this.#isStarted = true
        this.#depth = 1
        start = index + 1
        continue
      }
      const boundary = this.#structural(code, () => this.#buffer + chunk.slice(start, index))
      if (boundary) {
        this.#buffer = ''
        start = index + 1
      }
    }
    if (this.#depth > 0) this.#buffer += chunk.slice(start)
  }

  end(): void {
    if (!this.#isStarted) throw malformed('the body is empty; send a JSON object')
    if (this.#depth !== 0 || this.#inString) throw malformed('the body ends before the top-level object is closed')
    this.#isFinished = true
  }

  get isFinished(): boolean {
    return this.#isFinished
  }

  /** Handles one character outside strings; true when it ended a piece (the buffer restarts after it). */
  #structural(code: number, pending: () => string): boolean {
    switch (code) {
      case quote:
        this.#inString = true
        return false
      case openBrace:
      case openBracket:
        if (this.#depth === 1 && code === openBracket && this.#arrayKeyPattern.test(pending())) {
          if (this.#hasArray) throw malformed(`"${this.#arrayKey}" appears twice`)
          this.#hasArray = true
          this.#inArray = true
          this.#depth = 2
          this.#handlers.onArrayStart()
          return true
        }
        this.#depth++
        return false
      case closeBrace:
      case closeBracket:
        return this.#close(code, pending)
      case comma:
        if (this.#depth === 1) {
          this.#member(pending())
          return true
        }
        if (this.#inArray && this.#depth === 2) {
          this.#element(pending(), false)
          return true
        }
        return false
      default:
        return false
    }
  }

  #close(code: number, pending: () => string): boolean {
    if (this.#inArray && this.#depth === 2) {
      if (code !== closeBracket) throw malformed(`"${this.#arrayKey}" is not closed by ]`)
      this.#element(pending(), true)
      this.#inArray = false
      this.#depth = 1
      return true
    }
    if (this.#depth === 1) {
      if (code !== closeBrace) throw malformed('the top-level object is not closed by }')
      this.#member(pending())
      this.#depth = 0
      return true
    }
    this.#depth--
    return false
  }

  #member(text: string): void {
    if (text.trim() === '') return
    const parsed = parsePiece(`{${text}}`, 'a top-level member') as Record<string, unknown>
    for (const [key, value] of Object.entries(parsed)) this.#handlers.onMember(key, value)
  }

  #element(text: string, isLast: boolean): void {
    if (text.trim() === '') {
      if (isLast && this.#elementCount === 0) return
      throw malformed(`${this.#arrayKey}[${this.#elementCount}] is empty`)
    }
    const index = this.#elementCount++
    this.#handlers.onElement(parsePiece(text, `${this.#arrayKey}[${index}]`), index)
  }
}
