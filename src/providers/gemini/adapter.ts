import type { ProviderAdapter } from '../provider-adapter.ts'
import { classifyGeminiError } from './errors.ts'
import { buildGeminiRequest } from './request.ts'
import { parseGeminiResponse } from './response.ts'
import { GeminiStreamParser } from './stream.ts'

/** Gemini API (`/v1beta/models/{id}:generateContent`, `:streamGenerateContent?alt=sse`). */
export const geminiAdapter: ProviderAdapter = {
  api: 'gemini',
  buildRequest: buildGeminiRequest,
  parseResponse: parseGeminiResponse,
  createStreamParser: () => new GeminiStreamParser(),
  classifyError: classifyGeminiError,
}
