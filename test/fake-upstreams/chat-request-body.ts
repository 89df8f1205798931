// The members of a chat-style request body (OpenAI chat completions or Anthropic messages) that tests read
// from what a fake upstream recorded.
import type { RecordedRequest } from './fake-upstream.ts'

export interface ChatRequestBody {
  readonly model?: string
  readonly stream?: boolean
  readonly logprobs?: boolean
  readonly top_logprobs?: number
  readonly tools?: readonly { readonly function: { readonly name: string } }[]
  /** `content` is a string in OpenAI chat and a list of content blocks in Anthropic messages. */
  readonly messages: readonly { readonly role: string; readonly content: unknown }[]
}

/** The recorded body as a chat request; the fakes record what the gateway sent, which is always a JSON object. */
export function chatBodyOf(request: RecordedRequest): ChatRequestBody {
  return request.body as ChatRequestBody
}
