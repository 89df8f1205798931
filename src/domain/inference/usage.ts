// Token usage in one convention whatever the upstream reported:
// - input_tokens counts every prompt token, cached or not (Anthropic's separate cache counts are added in);
// - output_tokens counts every generated token, reasoning included (Gemini's thoughts are added in);
// - cached_input_tokens, cache_write_tokens and reasoning_tokens are subsets of the above.

export interface Usage {
  readonly input_tokens: number
  readonly output_tokens: number
  readonly cached_input_tokens: number
  readonly cache_write_tokens: number
  readonly reasoning_tokens: number
  readonly total_tokens: number
}

export const emptyUsage: Usage = {
  input_tokens: 0,
  output_tokens: 0,
  cached_input_tokens: 0,
  cache_write_tokens: 0,
  reasoning_tokens: 0,
  total_tokens: 0,
}

/** Builds a Usage from the parts an upstream reports; missing parts count as zero. */
export function makeUsage(parts: Partial<Omit<Usage, 'total_tokens'>> & { total_tokens?: number }): Usage {
  const input = parts.input_tokens ?? 0
  const output = parts.output_tokens ?? 0
  return {
    input_tokens: input,
    output_tokens: output,
    cached_input_tokens: parts.cached_input_tokens ?? 0,
    cache_write_tokens: parts.cache_write_tokens ?? 0,
    reasoning_tokens: parts.reasoning_tokens ?? 0,
    total_tokens: parts.total_tokens ?? input + output,
  }
}
