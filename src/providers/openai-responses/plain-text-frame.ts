// A streamed Responses answer is mostly `response.output_text.delta` events; each is read with one
// regular expression instead of JSON.parse, which was most of a stream's cost per frame. The pattern is
// the whole event as OpenAI writes it (keys in its order, `obfuscation` optional), so an event it matches
// is valid JSON with exactly these keys; any other (another order, spacing, log probabilities, a text
// with escapes) answers undefined and is parsed.
//
// `PlainTextDeltaReader` reads one stream's events, whose text deltas differ only in their sequence
// number, text and obfuscation: an event that starts with the delta's type, has a plain sequence number,
// then the bytes through `"delta":"` of the last delta read (its item and indexes), plain text, and one
// of the two endings the pattern admits, matches the pattern as well. So it is read with slice
// comparisons and scans of its short strings; the expression (about 1.6 K instructions a frame) runs
// when an event does not fit.
import { indexValue, isPlainText, plainString, plainStringValue } from '../plain-json.ts'

const textDelta = new RegExp(
  `^\\{"type":"response\\.output_text\\.delta","sequence_number":(0|[1-9]\\d{0,14}),"item_id":${plainString},"output_index":${indexValue},"content_index":${indexValue},"delta":${plainStringValue},"logprobs":\\[\\](?:,"obfuscation":${plainString})?\\}$`,
)

export interface PlainTextDelta {
  /** The text part's key (`output_index:content_index`, as the parser keys it). */
  readonly key: string
  readonly text: string
  readonly sequence: number
}

/** The text part's key, text and sequence number of a text delta in OpenAI's layout; undefined otherwise. */
export function readPlainTextDelta(data: string): PlainTextDelta | undefined {
  const match = textDelta.exec(data)
  return match === null ? undefined : { key: `${match[2]}:${match[3]}`, text: match[4]!, sequence: Number(match[1]) }
}

const head = '{"type":"response.output_text.delta","sequence_number":'
const textOpening = '"delta":"'
const plainEnding = '","logprobs":[]}'
const obfuscatedEnding = '","logprobs":[],"obfuscation":"'

/** Where a sequence number as the pattern admits it (0, or up to 15 digits without a leading zero) ends; -1 if none starts at `start`. */
function sequenceEnd(data: string, start: number): number {
  const first = data.charCodeAt(start)
  if (first === 0x30) return start + 1
  if (!(first > 0x30 && first <= 0x39)) return -1
  let index = start + 1
  const last = Math.min(data.length, start + 15)
  while (index < last) {
    const code = data.charCodeAt(index)
    if (code < 0x30 || code > 0x39) break
    index++
  }
  return index
}

/** The bytes after the text end the event as the pattern admits: no log probabilities, a plain obfuscation or none. */
function hasPlainEnding(data: string, textEnd: number): boolean {
  const ending = data.slice(textEnd)
  if (ending === plainEnding) return true
  return (
    ending.length >= obfuscatedEnding.length + 2 &&
    ending.slice(0, obfuscatedEnding.length) === obfuscatedEnding &&
    ending.slice(-2) === '"}' &&
    isPlainText(ending.slice(obfuscatedEnding.length, -2))
  )
}

/** `readPlainTextDelta` for the events of one stream, remembering the last text delta's item and indexes. */
export class PlainTextDeltaReader {
  /** The last delta's bytes from the comma after its sequence number through `"delta":"`, and its key. */
  #middle = ''
  #key = ''

  read(data: string): PlainTextDelta | undefined {
    const middle = this.#middle
    // Slices compared whole: startsWith, inlined by the optimizing compiler, compares one character at
    // a time at several times the cost.
    if (middle !== '' && data.slice(0, head.length) === head) {
      const numberEnd = sequenceEnd(data, head.length)
      const textStart = numberEnd + middle.length
      if (numberEnd !== -1 && data.slice(numberEnd, textStart) === middle) {
        const textEnd = data.indexOf('"', textStart)
        if (textEnd !== -1) {
          const text = data.slice(textStart, textEnd)
          if (isPlainText(text) && hasPlainEnding(data, textEnd))
            return { key: this.#key, text, sequence: Number(data.slice(head.length, numberEnd)) }
        }
      }
    }
    const read = readPlainTextDelta(data)
    if (read !== undefined) {
      const numberEnd = head.length + String(read.sequence).length
      this.#middle = data.slice(numberEnd, data.indexOf(textOpening, numberEnd) + textOpening.length)
      this.#key = read.key
    }
    return read
  }
}
