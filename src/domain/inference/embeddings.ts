// The canonical embeddings call and result: what the embeddings pipeline hands to a provider's
// embeddings translator and gets back, whatever the upstream family.

/** One input to embed: a text, a pre-tokenized text, or multimodal parts. */
export type EmbeddingInput =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tokens'; readonly tokens: readonly number[] }
  | { readonly type: 'parts'; readonly parts: readonly EmbeddingPart[] }

export type EmbeddingPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image_url'; readonly url: string }
  /** input_audio, input_video, input_file: passed on as the client sent them. */
  | { readonly type: 'other'; readonly part: Readonly<Record<string, unknown>> }

export interface EmbeddingsCall {
  /** The model id as sent upstream (`upstream_model_id` of the endpoint). */
  readonly model: string
  readonly inputs: readonly EmbeddingInput[]
  readonly dimensions?: number
  /** e.g. search_query, search_document; sent to providers that take it. */
  readonly input_type?: string
  /** The end user, for upstream abuse monitoring. */
  readonly user?: string
  /** The vector encoding to ask for, when the provider offers a choice (the client's); floats otherwise. */
  readonly encoding_format?: 'float' | 'base64'
}

/**
 * A vector kept as the upstream's JSON text, so the gateway passes it on without reading its numbers:
 * a float array (`[0.1,-0.2]`) or a base64 string of little-endian float32s, quotes included.
 * The translator that made it checked that the text is one: a flat array (no string, object, nested
 * array or word such as null or NaN inside), or a string of base64 characters only.
 */
export interface WireVector {
  readonly format: 'float' | 'base64'
  readonly json: string
}

/** A vector as numbers (a translator that parsed the answer), or as the upstream's text. */
export type EmbeddingVector = readonly number[] | WireVector

export interface EmbeddingsResult {
  /** One vector per input, in input order. */
  readonly vectors: readonly EmbeddingVector[]
  /** The model the upstream says answered ('' when it does not say). */
  readonly model: string
  /** Prompt tokens the upstream counted; null when it does not say (Gemini), then the gateway estimates. */
  readonly prompt_tokens: number | null
}
