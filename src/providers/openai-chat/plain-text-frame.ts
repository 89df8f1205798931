// Nearly every frame of a streamed chat answer carries one piece of text and nothing else, and parsing
// each with JSON.parse was most of what a stream cost the gateway per frame (docs/performance.md, item
// 38). `readPlainTextFrame` recognizes such a frame with two regular expressions (about half the cost
// of the parse, and nothing allocated but the text) and returns its text. It answers only for a frame
// in which the parser would read nothing but `choices[0].delta.content`; for any other frame it answers
// undefined and the caller parses the frame.
//
// Why a pattern is enough: the frame may hold no backslash, so every `"` in it opens or closes a string,
// a key can only be spelled as its plain `"name"`, and braces and brackets outside the text are
// structure. The pattern admits no nested value but the one choice and its delta, so anything else
// the parser reads (reasoning, tool calls, a role) cannot be there; finish reason, usage and error are
// scalars the second expression requires to be null. A frame of this shape that is not well-formed JSON
// elsewhere (an unquoted word where a value belongs) is read as text, where the parser would end the
// stream with an error; a body cut short still ends it, because it never brings the finish.

/**
 * `{...,"choices":[{...,"delta":{"content":"<text>"}...}]...}`: one choice and its delta are the only
 * nested values, there is no backslash, and the text holds no quote or control character (a text with
 * escapes goes to the parser).
 */
// eslint-disable-next-line no-control-regex -- JSON strings may not hold control characters unescaped
const plainTextChunk = /^\{[^\\{}[\]]*"choices":\[\{[^\\{}[\]]*"delta":\{"content":"([^"\\\u0000-\u001f]*)"\}[^\\{}[\]]*\}\][^\\{}[\]]*\}$/

/**
 * What the parser would read besides the text: a finish reason, usage or error that is not null, or a
 * second `choices` or `delta` (a duplicate key, which JSON.parse takes over the first).
 */
const readableKey = /"(?:finish_reason|usage|error)"\s*:\s*(?!null\s*[,}])|"choices"\s*:\s*(?!\[)|"delta"\s*:\s*(?!\{)/

/** The text of a frame that holds nothing the parser reads but `choices[0].delta.content`; undefined otherwise. */
export function readPlainTextFrame(data: string): string | undefined {
  const match = plainTextChunk.exec(data)
  if (match === null || readableKey.test(data)) return undefined
  return match[1]
}
