// Azure OpenAI: the Chat Completions or Responses wire (`options.wire`: `chat`, the default, or
// `responses`) at Azure's URLs (urls.ts), with the resource key or an Entra ID token (authorizer.ts).
// Bodies, answers and streams are OpenAI's, read by the OpenAI adapters (a chat stream's opening
// prompt-filter chunk aside: chat-stream.ts).
import type { ProviderAdapter, ProviderSettings } from '../provider-adapter.ts'
import { chatBody, jsonHeaders } from '../openai-chat/request.ts'
import { parseChatResponse } from '../openai-chat/response.ts'
import { responsesBody } from '../openai-responses/request.ts'
import { parseResponsesResponse } from '../openai-responses/response.ts'
import { ResponsesStreamParser } from '../openai-responses/stream.ts'
import { createAzureAuthorizer } from './authorizer.ts'
import { AzureChatStreamParser } from './chat-stream.ts'
import { classifyAzureError } from './errors.ts'
import { azurePath } from './urls.ts'

const azureChatAdapter: ProviderAdapter = {
  api: 'azure-openai',
  framing: 'sse',
  buildRequest: (call, settings) => ({
    method: 'POST',
    path: azurePath('chat/completions', call.model, settings),
    headers: jsonHeaders,
    body: chatBody(call),
  }),
  createAuthorizer: createAzureAuthorizer,
  parseResponse: parseChatResponse,
  createStreamParser: () => new AzureChatStreamParser(),
  classifyError: classifyAzureError,
}

const azureResponsesAdapter: ProviderAdapter = {
  api: 'azure-openai',
  framing: 'sse',
  buildRequest: (call, settings) => ({
    method: 'POST',
    path: azurePath('responses', call.model, settings),
    headers: jsonHeaders,
    body: responsesBody(call),
  }),
  createAuthorizer: createAzureAuthorizer,
  parseResponse: parseResponsesResponse,
  createStreamParser: (passThrough) => new ResponsesStreamParser(passThrough),
  passThroughFormat: 'openai-responses',
  classifyError: classifyAzureError,
}

export function chooseAzureAdapter(_upstreamModelId: string, settings: ProviderSettings): ProviderAdapter {
  return settings.options?.wire === 'responses' ? azureResponsesAdapter : azureChatAdapter
}
