import type { ProviderAdapter } from '../provider-adapter.ts'
import { createBedrockAuthorizer } from './authorizer.ts'
import { classifyBedrockError } from './errors.ts'
import { buildConverseRequest } from './request.ts'
import { parseConverseResponse } from './response.ts'
import { ConverseStreamParser } from './stream.ts'

/** Amazon Bedrock Converse and ConverseStream (`/model/{id}/converse[-stream]`), SigV4-signed. */
export const bedrockAdapter: ProviderAdapter = {
  api: 'bedrock',
  framing: 'aws-event-stream',
  buildRequest: buildConverseRequest,
  createAuthorizer: createBedrockAuthorizer,
  parseResponse: parseConverseResponse,
  createStreamParser: () => new ConverseStreamParser(),
  classifyError: classifyBedrockError,
}
