// The request parameters an endpoint is listed as supporting when its config names none.
import type { ProviderApi } from '../../domain/inference/provider-api.ts'

// `input_type` only where the API is known to take it (Gemini's and Vertex's taskType): OpenAI's own API refuses unknown
// fields, so an OpenAI-compatible server that takes it (Voyage, Cohere) lists it in supported_parameters.
export function defaultParameters(kind: 'text' | 'embedding', api: ProviderApi): string[] {
  if (kind === 'embedding')
    return api === 'gemini' || api === 'vertex'
      ? ['dimensions', 'encoding_format', 'input_type']
      : ['dimensions', 'encoding_format']
  return [
    'max_tokens',
    'temperature',
    'top_p',
    'stop',
    'frequency_penalty',
    'presence_penalty',
    'seed',
    'tools',
    'tool_choice',
    'response_format',
    'structured_outputs',
    'reasoning',
  ]
}
