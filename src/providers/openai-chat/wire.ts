// OpenAI Chat Completions wire types (the subset Switchyard reads and writes).

export type ChatContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string; detail?: 'auto' | 'low' | 'high' } }

export interface ChatToolCall {
  id: string
  type: 'function'
  function: { name: string; arguments: string }
}

export type ChatMessage =
  | { role: 'system' | 'developer'; content: string }
  | { role: 'user'; content: string | ChatContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string }

export interface ChatUsage {
  prompt_tokens?: number
  completion_tokens?: number
  total_tokens?: number
  prompt_tokens_details?: { cached_tokens?: number | null } | null
  completion_tokens_details?: { reasoning_tokens?: number | null } | null
}

export interface ChatCompletion {
  id: string
  model: string
  choices: {
    index: number
    message: {
      role: 'assistant'
      content?: string | null
      /** Not OpenAI's own: DeepSeek, vLLM and OpenRouter-style servers send their reasoning here. */
      reasoning_content?: string | null
      reasoning?: string | null
      tool_calls?: ChatToolCall[] | null
      refusal?: string | null
    }
    finish_reason: string | null
    logprobs?: { content?: ChatTokenLogprob[] | null } | null
  }[]
  usage?: ChatUsage | null
}

export interface ChatTokenLogprob {
  token: string
  logprob: number
  top_logprobs?: { token: string; logprob: number }[] | null
}

export interface ChatToolCallDelta {
  index: number
  id?: string
  type?: 'function'
  function?: { name?: string; arguments?: string }
}

export interface ChatCompletionChunk {
  id: string
  model: string
  choices: {
    index: number
    delta: {
      role?: string
      content?: string | null
      reasoning_content?: string | null
      reasoning?: string | null
      tool_calls?: ChatToolCallDelta[] | null
    }
    finish_reason?: string | null
  }[]
  usage?: ChatUsage | null
}

export interface ChatErrorBody {
  error?: { message?: string; type?: string | null; code?: string | number | null; param?: string | null }
}
