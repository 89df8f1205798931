// Google Vertex AI: Gemini models through generateContent / streamGenerateContent (Google's publisher)
// and Claude models through rawPredict / streamRawPredict (Anthropic's publisher), under one project
// and location (urls.ts), with an OAuth access token (authorizer.ts). Bodies, answers and streams are
// those of the Gemini and Anthropic adapters; a Claude body carries Vertex's `anthropic_version` in
// place of the header and no `model` (the URL names it).
import type { ProviderAdapter, ProviderSettings } from '../provider-adapter.ts'
import { anthropicBody } from '../anthropic/request.ts'
import { parseAnthropicResponse } from '../anthropic/response.ts'
import { AnthropicStreamParser } from '../anthropic/stream.ts'
import { geminiBody } from '../gemini/request.ts'
import { parseGeminiResponse } from '../gemini/response.ts'
import { GeminiStreamParser } from '../gemini/stream.ts'
import { createVertexAuthorizer } from './authorizer.ts'
import { classifyVertexError } from './errors.ts'
import { vertexModelPath, vertexPublisher } from './urls.ts'

const vertexAnthropicVersion = 'vertex-2023-10-16'
const jsonHeaders: Readonly<Record<string, string>> = { 'content-type': 'application/json' }

const vertexGeminiAdapter: ProviderAdapter = {
  api: 'vertex',
  framing: 'sse',
  buildRequest: (call, settings) => ({
    method: 'POST',
    path: call.stream
      ? vertexModelPath(settings, call.model, 'streamGenerateContent') + '?alt=sse'
      : vertexModelPath(settings, call.model, 'generateContent'),
    headers: jsonHeaders,
    body: Object.assign(geminiBody(call), call.extra),
  }),
  createAuthorizer: createVertexAuthorizer,
  parseResponse: parseGeminiResponse,
  createStreamParser: () => new GeminiStreamParser(),
  classifyError: classifyVertexError,
}

const vertexAnthropicAdapter: ProviderAdapter = {
  api: 'vertex',
  framing: 'sse',
  buildRequest: (call, settings) => {
    const { model: _model, ...body } = anthropicBody(call)
    return {
      method: 'POST',
      path: vertexModelPath(settings, call.model, call.stream ? 'streamRawPredict' : 'rawPredict'),
      headers: jsonHeaders,
      body: Object.assign({ anthropic_version: vertexAnthropicVersion }, body, call.extra),
    }
  },
  createAuthorizer: createVertexAuthorizer,
  parseResponse: parseAnthropicResponse,
  createStreamParser: () => new AnthropicStreamParser(),
  classifyError: classifyVertexError,
}

export function chooseVertexAdapter(upstreamModelId: string, _settings: ProviderSettings): ProviderAdapter {
  return vertexPublisher(upstreamModelId) === 'anthropic' ? vertexAnthropicAdapter : vertexGeminiAdapter
}
