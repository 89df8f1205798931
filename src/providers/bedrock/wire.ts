// The Bedrock Converse wire shapes the adapter reads and writes (the fields it uses).

export type ConverseBlock =
  | { readonly text: string }
  | { readonly image: { readonly format: string; readonly source: { readonly bytes: string } } }
  | { readonly toolUse: { readonly toolUseId: string; readonly name: string; readonly input: unknown } }
  | { readonly toolResult: { readonly toolUseId: string; readonly content: readonly ConverseBlock[] } }
  | {
      readonly reasoningContent:
        | { readonly reasoningText: { readonly text: string; readonly signature?: string } }
        | { readonly redactedContent: string }
    }

export interface ConverseMessage {
  readonly role: 'user' | 'assistant'
  readonly content: ConverseBlock[]
}

export interface ConverseUsage {
  readonly inputTokens?: number
  readonly outputTokens?: number
  readonly totalTokens?: number
  readonly cacheReadInputTokens?: number
  readonly cacheWriteInputTokens?: number
}

/** An output content block as Converse answers it: any of the members may be present. */
export interface ConverseOutputBlock {
  readonly text?: string
  readonly toolUse?: { readonly toolUseId?: string; readonly name?: string; readonly input?: unknown }
  readonly reasoningContent?: {
    readonly reasoningText?: { readonly text?: string; readonly signature?: string }
    readonly redactedContent?: string
  }
}

export interface ConverseResponse {
  readonly output?: { readonly message?: { readonly content?: readonly ConverseOutputBlock[] } }
  readonly stopReason?: string
  readonly usage?: ConverseUsage
}

/** A ConverseStream event payload (the `:event-type` header names which). */
export interface ConverseStreamPayload {
  readonly role?: string
  readonly contentBlockIndex?: number
  readonly start?: { readonly toolUse?: { readonly toolUseId?: string; readonly name?: string } }
  readonly delta?: {
    readonly text?: string
    readonly toolUse?: { readonly input?: string }
    readonly reasoningContent?: {
      readonly text?: string
      readonly signature?: string
      readonly redactedContent?: string
    }
  }
  readonly stopReason?: string
  readonly usage?: ConverseUsage
  readonly message?: string
}
