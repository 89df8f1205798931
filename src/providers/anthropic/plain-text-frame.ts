// A streamed Messages answer is mostly `content_block_delta` frames carrying a piece of text or of
// thinking; each is read with one regular expression instead of JSON.parse, which was most of a stream's
// cost per frame. The pattern is the whole frame as Anthropic writes it, so a frame it matches is valid
// JSON with exactly these keys; any other frame (another order, spacing, a text with escapes) answers
// undefined and is parsed.
import { indexValue, plainStringValue } from '../plain-json.ts'
import type { AnthropicStreamDelta } from './wire.ts'

const plainDelta = new RegExp(
  `^\\{"type":"content_block_delta","index":${indexValue},"delta":\\{(?:"type":"text_delta","text":${plainStringValue}|"type":"thinking_delta","thinking":${plainStringValue})\\}\\}$`,
)

/** The block index and delta of a text or thinking delta frame written as Anthropic writes it; undefined otherwise. */
export function readPlainDelta(
  data: string,
): { readonly index: number; readonly delta: AnthropicStreamDelta } | undefined {
  const match = plainDelta.exec(data)
  if (match === null) return undefined
  const index = Number(match[1])
  return match[2] === undefined
    ? { index, delta: { type: 'thinking_delta', thinking: match[3]! } }
    : { index, delta: { type: 'text_delta', text: match[2] } }
}
