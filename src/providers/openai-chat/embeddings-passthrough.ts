// Reads an OpenAI embeddings answer without parsing its vectors: each `"embedding":` value is found in
// place (a flat JSON array, or a base64 string) and kept as text, and only the envelope around them
// (object, index, model, usage) is parsed, with each vector replaced by its position. Parsing 1,536
// floats and printing them again costs many times the rest of a request, and so does matching them
// number by number (a regular expression runs per character, about 400 K instructions a vector): a
// float vector is passed through as the upstream's bytes once it is one flat array, checked with
// string searches (no string, object or nested array inside it, so the envelope read around it is the
// upstream's own, and none of the words JSON or a Python server could print in place of a number).
// Any answer this does not recognise (another key holding `"embedding"`, a vector that is not flat, a
// base64 string with other characters) yields null, and the caller parses the whole body instead.
import type { EmbeddingsResult, WireVector } from '../../domain/inference/embeddings.ts'

const key = '"embedding"'
/**
 * What a flat array of numbers never holds: a string, an object or a nested array, and the first
 * letter (or one only they hold) of null, true, false, NaN, Infinity and nan/inf.
 */
const notInFloats = ['"', '[', '{', '}', 'n', 't', 'a', 'N', 'I', 'i'] as const
/** A base64 string, quotes included. */
const base64String = /"[A-Za-z0-9+/]*={0,2}"/y
const separator = /\s*:\s*/y

/** The end (after `]`) of the flat array at `start` (its `[`), or -1. */
function floatArrayEnd(text: string, start: number): number {
  const close = text.indexOf(']', start)
  if (close === -1) return -1
  // A slice shares the text's characters; searching it stops at the vector's end.
  const inside = text.slice(start + 1, close)
  for (const character of notInFloats) if (inside.includes(character)) return -1
  return close + 1
}

/** The end (after the closing quote) of the base64 string at `start`, or -1. */
function base64End(text: string, start: number): number {
  base64String.lastIndex = start
  return base64String.test(text) ? base64String.lastIndex : -1
}

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
    const first = text.charCodeAt(start)
    const format = first === 0x22 ? 'base64' : 'float'
    const end = format === 'base64' ? base64End(text, start) : first === 0x5b ? floatArrayEnd(text, start) : -1
    if (end === -1) return null
    spans.push({ start, end, format })
    at = end
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
