// A streamed Responses answer is mostly `response.output_text.delta` events; each is read with one
// regular expression instead of JSON.parse, which was most of a stream's cost per frame. The pattern is
// the whole event as OpenAI writes it (keys in its order, `obfuscation` optional), so an event it matches
// is valid JSON with exactly these keys; any other (another order, spacing, log probabilities, a text
// with escapes) answers undefined and is parsed.
import { indexValue, plainString, plainStringValue } from '../plain-json.ts'

const textDelta = new RegExp(
  `^\\{"type":"response\\.output_text\\.delta","sequence_number":(0|[1-9]\\d{0,14}),"item_id":${plainString},"output_index":${indexValue},"content_index":${indexValue},"delta":${plainStringValue},"logprobs":\\[\\](?:,"obfuscation":${plainString})?\\}$`,
)

/** The text part's key (`output_index:content_index`, as the parser keys it), text and sequence number; undefined otherwise. */
export function readPlainTextDelta(
  data: string,
): { readonly key: string; readonly text: string; readonly sequence: number } | undefined {
  const match = textDelta.exec(data)
  return match === null ? undefined : { key: `${match[2]}:${match[3]}`, text: match[4]!, sequence: Number(match[1]) }
}
