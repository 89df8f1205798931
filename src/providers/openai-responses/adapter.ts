import type { ProviderAdapter } from '../provider-adapter.ts'
import { headerAuthorizer } from '../static-authorizer.ts'
import { classifyResponsesError } from './errors.ts'
import { buildResponsesRequest } from './request.ts'
import { parseResponsesResponse } from './response.ts'
import { ResponsesStreamParser } from './stream.ts'

/** OpenAI Responses API (`POST /responses`). */
export const openaiResponsesAdapter: ProviderAdapter = {
  api: 'openai-responses',
  framing: 'sse',
  buildRequest: buildResponsesRequest,
  createAuthorizer: (settings) =>
    headerAuthorizer('authorization', settings.apiKey === null ? null : `Bearer ${settings.apiKey}`),
  parseResponse: parseResponsesResponse,
  createStreamParser: (passThrough) => new ResponsesStreamParser(passThrough),
  passThroughFormat: 'openai-responses',
  classifyError: classifyResponsesError,
}
