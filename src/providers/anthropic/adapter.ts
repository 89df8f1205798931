import type { ProviderAdapter } from '../provider-adapter.ts'
import { classifyAnthropicError } from './errors.ts'
import { buildAnthropicRequest } from './request.ts'
import { parseAnthropicResponse } from './response.ts'
import { AnthropicStreamParser } from './stream.ts'

/** Anthropic Messages API (`POST /v1/messages`). */
export const anthropicAdapter: ProviderAdapter = {
  api: 'anthropic',
  buildRequest: buildAnthropicRequest,
  parseResponse: parseAnthropicResponse,
  createStreamParser: () => new AnthropicStreamParser(),
  classifyError: classifyAnthropicError,
}
