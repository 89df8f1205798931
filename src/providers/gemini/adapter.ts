import type { ProviderAdapter } from '../provider-adapter.ts'
import { headerAuthorizer } from '../static-authorizer.ts'
import { classifyGeminiError } from './errors.ts'
import { buildGeminiRequest } from './request.ts'
import { parseGeminiResponse } from './response.ts'
import { GeminiStreamParser } from './stream.ts'

/** Gemini API (`/v1beta/models/{id}:generateContent`, `:streamGenerateContent?alt=sse`). */
export const geminiAdapter: ProviderAdapter = {
  api: 'gemini',
  framing: 'sse',
  buildRequest: buildGeminiRequest,
  createAuthorizer: (settings) => headerAuthorizer('x-goog-api-key', settings.apiKey),
  parseResponse: parseGeminiResponse,
  createStreamParser: () => new GeminiStreamParser(),
  classifyError: classifyGeminiError,
}
