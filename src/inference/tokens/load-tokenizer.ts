// Token counting with OpenAI's byte-pair encodings (gpt-tokenizer, whose ranks ship in its npm package:
// nothing is downloaded). OpenAI models are counted with their own encoding; every other model (Anthropic,
// Google, Meta, Mistral, ...) with o200k_base, an approximation: their tokenizers are not public or differ,
// and typically count within about 20% of it. An encoding's tables are loaded on first use (they take
// about a second to parse), once per process.

/** The two encodings in use: cl100k_base (GPT-4, GPT-3.5, the embedding models) and o200k_base (the rest). */
export type EncodingName = 'o200k_base' | 'cl100k_base'

export interface Tokenizer {
  readonly encoding: EncodingName
  /** The tokens of a text; special-token markup such as `<|endoftext|>` counts as plain text. */
  count(text: string): number
}

type CountPiece = (text: string) => number

// Byte-pair merging is quadratic in the length of one pre-tokenized piece, and a run of characters
// without whitespace (base64, a long URL, "aaaa...") is one piece: such runs, and long whitespace runs,
// are counted in slices of this many characters, which costs at most a token per slice boundary.
const RUN_SLICE = 256
const LONG_RUN = /\S{256,}|\s{256,}/g

// What OpenAI counts with cl100k_base: GPT-4 (not 4o/4.1/4.5), GPT-3.5 and the embedding models.
const CL100K_MODELS = /^(gpt-4(-|$)|gpt-3\.5|text-embedding-|davinci-002|babbage-002)/

/** The encoding a model is counted with: by its id without any `vendor/` prefix. */
export function encodingForModel(model: string): EncodingName {
  const id = model.slice(model.lastIndexOf('/') + 1).toLowerCase()
  return CL100K_MODELS.test(id) ? 'cl100k_base' : 'o200k_base'
}

const loaded = new Map<EncodingName, Promise<Tokenizer>>()

/** The tokenizer of a model's encoding (see `encodingForModel`), loaded once per process. */
export function loadTokenizer(model: string): Promise<Tokenizer> {
  const encoding = encodingForModel(model)
  let tokenizer = loaded.get(encoding)
  if (tokenizer === undefined) {
    tokenizer = importEncoding(encoding).then((countPiece) => ({
      encoding,
      count: (text: string) => countInSlices(text, countPiece),
    }))
    loaded.set(encoding, tokenizer)
  }
  return tokenizer
}

async function importEncoding(encoding: EncodingName): Promise<CountPiece> {
  // Special tokens are neither allowed (as control tokens) nor refused: they are counted as the text they are.
  const plain = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() }
  const { countTokens } =
    encoding === 'cl100k_base'
      ? await import('gpt-tokenizer/encoding/cl100k_base')
      : await import('gpt-tokenizer/encoding/o200k_base')
  return (text) => (text === '' ? 0 : countTokens(text, plain))
}

function countInSlices(text: string, countPiece: CountPiece): number {
  let total = 0
  let start = 0
  for (const run of text.matchAll(LONG_RUN)) {
    total += countPiece(text.slice(start, run.index))
    const end = run.index + run[0].length
    for (let at = run.index; at < end;) {
      let sliceEnd = Math.min(at + RUN_SLICE, end)
      // Never split a surrogate pair.
      if (sliceEnd < end && isHighSurrogate(text.charCodeAt(sliceEnd - 1))) sliceEnd += 1
      total += countPiece(text.slice(at, sliceEnd))
      at = sliceEnd
    }
    start = end
  }
  return total + countPiece(text.slice(start))
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}
