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
import { plainStringValue, scalarMember } from '../plain-json.ts'

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
