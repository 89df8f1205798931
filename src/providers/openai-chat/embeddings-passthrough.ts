// Reads an OpenAI embeddings answer without parsing its vectors: each `"embedding":` value is matched
// in place (a JSON array of numbers, by the number grammar; or a base64 string) and kept as text, and
// only the envelope around them (object, index, model, usage) is parsed, with each vector replaced by
// its position. Parsing 1,536 floats and printing them again costs many times the rest of a request.
// Any answer this does not recognise (another key holding `"embedding"`, a vector that is not flat
// numbers or base64) yields null, and the caller parses the whole body instead.
import type { EmbeddingsResult, WireVector } from '../../domain/inference/embeddings.ts'

const key = '"embedding"'
const number = String.raw`-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?`
/** A flat JSON array of numbers, matched where `lastIndex` points. */
const floatArray = new RegExp(String.raw`\[\s*(?:${number}\s*(?:,\s*${number}\s*)*)?\]`, 'y')
/** A base64 string, quotes included. */
const base64String = /"[A-Za-z0-9+/]*={0,2}"/y
const separator = /\s*:\s*/y

interface Envelope {
  data?: { embedding?: unknown; index?: unknown }[]
  model?: unknown
  usage?: { prompt_tokens?: unknown; total_tokens?: unknown }
}

/** The vectors' text spans (start, end, format), in the order they appear; null when one is not flat. */
function findVectors(text: string): { start: number; end: number; format: WireVector['format'] }[] | null {
  const spans: { start: number; end: number; format: WireVector['format'] }[] = []
  for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at)) {
    separator.lastIndex = at + key.length
    // `"embedding"` not followed by a colon is a value (`"object":"embedding"`), not the key.
    if (!separator.test(text)) {
      at += key.length
      continue
    }
    const start = separator.lastIndex
    const pattern = text.charCodeAt(start) === 0x22 ? base64String : floatArray
    pattern.lastIndex = start
    if (!pattern.test(text)) return null
    spans.push({ start, end: pattern.lastIndex, format: pattern === base64String ? 'base64' : 'float' })
    at = pattern.lastIndex
  }
  return spans
}

/** The answer with its vectors as text; null when it is not the plain shape (the caller parses it whole). */
export function readWireEmbeddings(text: string, inputCount: number): EmbeddingsResult | null {
  const spans = findVectors(text)
  if (spans === null || spans.length !== inputCount) return null
  let envelopeText = ''
  let from = 0
  for (const [position, span] of spans.entries()) {
    envelopeText += `${text.slice(from, span.start)}${position}`
    from = span.end
  }
  const envelope = JSON.parse(envelopeText + text.slice(from)) as Envelope | null
  const data = envelope?.data
  if (!Array.isArray(data) || data.length !== inputCount) return null
  const vectors: WireVector[] = new Array(inputCount)
  for (const [position, item] of data.entries()) {
    const index = typeof item?.index === 'number' ? item.index : position
    // Each vector's placeholder must sit in its own data item, and every index be in range and distinct.
    if (item?.embedding !== position || !Number.isInteger(index) || index < 0 || index >= inputCount) return null
    if (vectors[index] !== undefined) return null
    const span = spans[position]!
    vectors[index] = { format: span.format, json: text.slice(span.start, span.end) }
  }
  const usage = envelope?.usage
  const tokens = usage?.prompt_tokens ?? usage?.total_tokens
  return {
    vectors,
    model: typeof envelope?.model === 'string' ? envelope.model : '',
    prompt_tokens: typeof tokens === 'number' ? tokens : null,
  }
}
