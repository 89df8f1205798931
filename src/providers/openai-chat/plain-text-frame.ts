// Nearly every frame of a streamed chat answer carries one piece of text and nothing else, and parsing
// each with JSON.parse was most of what a stream cost the gateway per frame. `readPlainTextFrame`
// recognizes such a frame with two regular expressions (less than half the cost of the parse, and no
// object tree to collect) and returns its text. It answers only for a frame in which the parser would
// read nothing but `choices[0].delta.content`; for any other frame it answers undefined and the caller
// parses the frame.
//
// The first pattern admits compact JSON whose only nested values are one choice and its delta, which
// holds `content` alone, and whose other members are plain scalars (plain-json.ts), in any order and
// whatever they are called: providers add their own (`system_fingerprint`, `obfuscation`, ...). So
// reasoning, tool calls and a role cannot be there. The second rules out the scalars the parser would
// read: a finish reason, usage or error that is not null, and a second `choices` or `delta` (JSON.parse
// takes a duplicate key's last value).
//
// `PlainTextFrameReader` reads one stream's frames, which mostly differ in their text alone: a frame that
// starts and ends as the last plain frame did (the text-free prefix through `"delta":{"content":"` and
// the suffix after the text) and holds plain text between them is plain as well, since both expressions'
// verdicts depend on nothing else. So it is read with two comparisons and a scan of its text; the two
// expressions (about 4 K instructions on a 200-byte frame) run when a frame does not fit.
import { isPlainText, plainStringValue, scalarMember } from '../plain-json.ts'

const plainTextChunk = new RegExp(
  `^\\{(?:${scalarMember},)*"choices":\\[\\{(?:${scalarMember},)*"delta":\\{"content":${plainStringValue}\\}(?:,${scalarMember})*\\}\\](?:,${scalarMember})*\\}$`,
)

const readableKey = /"(?:finish_reason|usage|error)":(?!null[,}])|"choices":(?!\[)|"delta":(?!\{)/

/** The text of a frame that holds nothing the parser reads but `choices[0].delta.content`; undefined otherwise. */
export function readPlainTextFrame(data: string): string | undefined {
  const match = plainTextChunk.exec(data)
  if (match === null || readableKey.test(data)) return undefined
  return match[1]
}

/** What opens the text in a plain frame; it occurs once there (a string in it holds no quote). */
const textOpening = '"delta":{"content":"'

/** `readPlainTextFrame` for the frames of one stream, remembering the last plain frame's shape. */
export class PlainTextFrameReader {
  #prefix = ''
  #suffix = ''

  read(data: string): string | undefined {
    const prefix = this.#prefix
    const suffix = this.#suffix
    const end = data.length - suffix.length
    // Slices compared whole: startsWith and endsWith, inlined by the optimizing compiler, compare one
    // character at a time at several times the cost.
    if (
      prefix !== '' &&
      end >= prefix.length &&
      data.slice(0, prefix.length) === prefix &&
      data.slice(end) === suffix
    ) {
      const text = data.slice(prefix.length, end)
      if (isPlainText(text)) return text
    }
    const text = readPlainTextFrame(data)
    if (text !== undefined) {
      const start = data.indexOf(textOpening) + textOpening.length
      this.#prefix = data.slice(0, start)
      this.#suffix = data.slice(start + text.length)
    }
    return text
  }
}
