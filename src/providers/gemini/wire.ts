// Gemini API (generativelanguage v1beta) wire types, the subset Switchyard reads and writes.

export interface GeminiPart {
  text?: string
  thought?: boolean
  thoughtSignature?: string
  inlineData?: { mimeType: string; data: string }
  fileData?: { mimeType?: string; fileUri: string }
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> }
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> }
}

export interface GeminiContent {
  role: 'user' | 'model'
  parts: GeminiPart[]
}

export interface GeminiUsageMetadata {
  promptTokenCount?: number
  candidatesTokenCount?: number
  totalTokenCount?: number
  cachedContentTokenCount?: number
  thoughtsTokenCount?: number
  toolUsePromptTokenCount?: number
}

export interface GeminiCandidate {
  content?: { role?: string; parts?: GeminiPart[] }
  finishReason?: string
  index?: number
}

export interface GeminiResponse {
  candidates?: GeminiCandidate[]
  promptFeedback?: { blockReason?: string }
  usageMetadata?: GeminiUsageMetadata
  modelVersion?: string
  responseId?: string
}

export interface GeminiErrorBody {
  error?: {
    code?: number
    message?: string
    status?: string
    details?: { '@type'?: string; retryDelay?: string }[]
  }
}
