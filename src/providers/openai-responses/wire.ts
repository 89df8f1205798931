// OpenAI Responses API wire types (the subset Switchyard reads and writes).

export type ResponsesInputContent =
  { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'auto' | 'low' | 'high' }

export type ResponsesInputItem =
  | { type: 'message'; role: 'system' | 'developer' | 'user'; content: string | ResponsesInputContent[] }
  | { type: 'message'; role: 'assistant'; content: string }
  | { type: 'reasoning'; id: string; summary: { type: 'summary_text'; text: string }[]; encrypted_content?: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string }

export type ResponsesOutputItem =
  | {
      type: 'message'
      id: string
      role: 'assistant'
      content: ({ type: 'output_text'; text: string } | { type: 'refusal'; refusal: string })[]
    }
  | {
      type: 'reasoning'
      id: string
      summary?: { type: 'summary_text'; text: string }[]
      content?: { type: 'reasoning_text'; text: string }[]
      encrypted_content?: string | null
    }
  | { type: 'function_call'; id?: string; call_id: string; name: string; arguments: string }
  | { type: 'web_search_call' | 'file_search_call' | 'image_generation_call'; id: string }

export interface ResponsesUsage {
  input_tokens?: number
  input_tokens_details?: { cached_tokens?: number | null } | null
  output_tokens?: number
  output_tokens_details?: { reasoning_tokens?: number | null } | null
  total_tokens?: number
}

export interface ResponsesError {
  code?: string | null
  message?: string
  type?: string | null
}

export interface ResponsesResponse {
  id: string
  object: 'response'
  model: string
  status: 'completed' | 'incomplete' | 'failed' | 'in_progress' | 'cancelled' | 'queued'
  incomplete_details?: { reason?: string } | null
  error?: ResponsesError | null
  output: ResponsesOutputItem[]
  usage?: ResponsesUsage | null
}

interface ItemEvent {
  output_index: number
  item_id?: string
}

export type ResponsesStreamEvent =
  | { type: 'response.created' | 'response.in_progress'; response: ResponsesResponse }
  | { type: 'response.completed' | 'response.incomplete' | 'response.failed'; response: ResponsesResponse }
  | ({ type: 'response.output_item.added' | 'response.output_item.done'; item: ResponsesOutputItem } & ItemEvent)
  | ({
      type: 'response.content_part.added' | 'response.content_part.done'
      content_index: number
      part: { type: string }
    } & ItemEvent)
  | ({
      type: 'response.output_text.delta' | 'response.refusal.delta'
      content_index: number
      delta: string
    } & ItemEvent)
  | ({ type: 'response.function_call_arguments.delta'; delta: string } & ItemEvent)
  | ({ type: 'response.reasoning_summary_part.added'; summary_index: number } & ItemEvent)
  | ({ type: 'response.reasoning_summary_text.delta' | 'response.reasoning_text.delta'; delta: string } & ItemEvent)
  | ({ type: 'error' } & ResponsesError)
