import type { ProviderAdapter } from '../provider-adapter.ts'
import { headerAuthorizer } from '../static-authorizer.ts'
import { classifyAnthropicError } from './errors.ts'
import { buildAnthropicRequest } from './request.ts'
import { parseAnthropicResponse } from './response.ts'
import { AnthropicStreamParser } from './stream.ts'

/** Anthropic Messages API (`POST /v1/messages`). */
export const anthropicAdapter: ProviderAdapter = {
  api: 'anthropic',
  framing: 'sse',
  buildRequest: buildAnthropicRequest,
  createAuthorizer: (settings) => headerAuthorizer('x-api-key', settings.apiKey),
  parseResponse: parseAnthropicResponse,
  createStreamParser: () => new AnthropicStreamParser(),
  classifyError: classifyAnthropicError,
}
