import type { ProviderAdapter } from '../provider-adapter.ts'
import { classifyResponsesError } from './errors.ts'
import { buildResponsesRequest } from './request.ts'
import { parseResponsesResponse } from './response.ts'
import { ResponsesStreamParser } from './stream.ts'

/** OpenAI Responses API (`POST /responses`). */
export const openaiResponsesAdapter: ProviderAdapter = {
  api: 'openai-responses',
  buildRequest: buildResponsesRequest,
  parseResponse: parseResponsesResponse,
  createStreamParser: () => new ResponsesStreamParser(),
  classifyError: classifyResponsesError,
}
