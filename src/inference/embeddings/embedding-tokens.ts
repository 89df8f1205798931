// Token counts for embeddings inputs when the upstream does not report them, and the worst case
// reserved before the call. A text never has more tokens than UTF-8 bytes; token arrays count exactly.
import type { EmbeddingInput } from '../../domain/inference/embeddings.ts'
import type { Tokenizer } from '../tokens/load-tokenizer.ts'

/** The reservation's upper bound: one token per UTF-8 byte of text, exact for token arrays. */
export function worstCaseEmbeddingTokens(inputs: readonly EmbeddingInput[]): number {
  return inputs.reduce((sum, input) => sum + inputTokens(input, (text) => Buffer.byteLength(text, 'utf8')), 0)
}

/** The estimate charged to tokens-per-minute rate limits before the call: one token per 4 characters, rounded up. */
export function estimateEmbeddingTokens(inputs: readonly EmbeddingInput[]): number {
  return inputs.reduce((sum, input) => sum + inputTokens(input, (text) => Math.ceil(text.length / 4)), 0)
}

/** The billed count when the upstream reports none (Gemini): the texts counted with the tokenizer. */
export function countEmbeddingTokens(inputs: readonly EmbeddingInput[], tokenizer: Tokenizer): number {
  return inputs.reduce((sum, input) => sum + inputTokens(input, (text) => tokenizer.count(text)), 0)
}

function inputTokens(input: EmbeddingInput, textTokens: (text: string) => number): number {
  if (input.type === 'text') return textTokens(input.text)
  if (input.type === 'tokens') return input.tokens.length
  // Non-text parts (images, audio) are priced by the provider; reserve a generous flat 1,000 tokens each.
  return input.parts.reduce((sum, part) => sum + (part.type === 'text' ? textTokens(part.text) : 1000), 0)
}
