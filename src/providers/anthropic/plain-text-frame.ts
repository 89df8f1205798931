// A streamed Messages answer is mostly `content_block_delta` frames with a `text_delta`; each is read with
// one regular expression instead of JSON.parse (docs/performance.md, item 38). The pattern is the whole
// frame as Anthropic writes it, so a frame it matches is valid JSON with exactly these keys; any other
// frame (another order, spacing, a text with escapes) answers undefined and is parsed.
import { indexValue, plainStringValue } from '../plain-json.ts'

const textDelta = new RegExp(`^\\{"type":"content_block_delta","index":${indexValue},"delta":\\{"type":"text_delta","text":${plainStringValue}\\}\\}$`)

/** The block index and text of a text delta frame written as Anthropic writes it; undefined otherwise. */
export function readPlainTextDelta(data: string): { readonly index: number; readonly text: string } | undefined {
  const match = textDelta.exec(data)
  return match === null ? undefined : { index: Number(match[1]), text: match[2]! }
}
