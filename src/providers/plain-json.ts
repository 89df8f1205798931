// Pieces of regular expressions that recognize compact JSON of a known shape without parsing it. Each
// provider's stream parser reads its text frames, nearly all of a streamed answer, with one of these
// patterns instead of JSON.parse, the largest per-frame cost of a stream; a frame that does not match is parsed.
//
// Every string these pieces admit is plain: no quote, backslash or control character inside, so it is
// its own value and no key can hide inside another string. A text with escapes does not match, and its
// frame goes to the parser. No whitespace is admitted between tokens: spaced JSON is parsed.

/** A string that needs no unescaping. */
export const plainString = String.raw`"[^"\\\u0000-\u001f]*"`

/** The same, capturing the string's value (without its quotes). */
export const plainStringValue = String.raw`"([^"\\\u0000-\u001f]*)"`

/** A non-negative JSON integer, captured. */
export const indexValue = String.raw`(0|[1-9]\d{0,8})`

const number = String.raw`-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?`

/** `"key":value` with a value that is a plain string, a number, true, false or null. */
export const scalarMember = `${plainString}:(?:${plainString}|${number}|true|false|null)`

/** A JSON string's content needs no escape: no quote, backslash or control character (what `plainString` admits). */
export function isPlainText(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code === 0x22 || code === 0x5c || code < 0x20) return false
  }
  return true
}
