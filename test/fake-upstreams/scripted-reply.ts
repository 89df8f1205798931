// What a test scripts a fake upstream to answer, and the normalized plan each wire encoder renders.
// Usage is given in the canonical convention (src/domain/inference/usage.ts); encoders convert it to
// each API's own counting, so an adapter that reads it back must arrive at the same numbers.

import type { FinishReason } from '../../src/domain/inference/finish-reason.ts'
import { makeUsage } from '../../src/domain/inference/usage.ts'
import type { Usage } from '../../src/domain/inference/usage.ts'

export interface ScriptedToolCall {
  readonly id?: string
  readonly name: string
  /** A JSON text; streamed in `chunks` pieces. */
  readonly arguments: string
}

export interface CompletionReply {
  readonly type: 'completion'
  readonly text?: string
  readonly reasoning?: string
  /** Anthropic signature / Gemini thoughtSignature / Responses encrypted_content of the reasoning. */
  readonly reasoningSignature?: string
  readonly toolCalls?: readonly ScriptedToolCall[]
  readonly usage?: Partial<Omit<Usage, 'total_tokens'>>
  /** Defaults to tool_calls when there are tool calls, else stop. */
  readonly finish?: Extract<FinishReason, 'stop' | 'length' | 'tool_calls' | 'content_filter'>
  readonly model?: string
  /** The upstream's response id; defaults to `fake_<request number>`. */
  readonly id?: string
  /** How many pieces the text, reasoning and each tool call's arguments are streamed in (default 3). */
  readonly chunks?: number
  /** Delay before each streamed frame (or before a JSON answer), in milliseconds. */
  readonly chunkDelayMs?: number
  /** Destroy the socket after this many frames (mid-stream disconnect). */
  readonly disconnectAfterFrames?: number
  /** Send a frame that is not JSON after this many frames. */
  readonly malformedFrameAfterFrames?: number
  /**
   * Stop after this many frames until `hold` resolves (a call kept in flight until the test lets go); a
   * JSON answer is held when it is 0.
   */
  readonly holdAfterFrames?: number
  readonly hold?: Promise<unknown>
  /** Chat Completions only: `choices[0].logprobs.content` of a non-streamed answer (when the request asked for logprobs). */
  readonly logprobs?: readonly ScriptedLogprob[]
}

export interface ScriptedLogprob {
  readonly token: string
  readonly logprob: number
  readonly top_logprobs?: readonly { readonly token: string; readonly logprob: number }[]
}

export interface ErrorReply {
  readonly type: 'error'
  readonly status: number
  readonly message?: string
  /** The API's error type or status (`overloaded_error`, `RESOURCE_EXHAUSTED`, `rate_limit_exceeded`). */
  readonly errorType?: string
  readonly retryAfterSeconds?: number
  readonly headers?: Readonly<Record<string, string>>
}

/** Destroys the connection without answering (ECONNRESET for the client). */
export interface ResetReply {
  readonly type: 'reset'
}

export interface EmbeddingsReply {
  readonly type: 'embeddings'
  /** Explicit vectors, one per input; otherwise deterministic vectors of `dimensions` (default 8). */
  readonly vectors?: readonly (readonly number[])[]
  readonly dimensions?: number
  /** The prompt tokens the reply reports (default: one per 4 characters of input). */
  readonly promptTokens?: number
}

export type ScriptedReply = CompletionReply | ErrorReply | ResetReply | EmbeddingsReply

export interface PlannedToolCall {
  readonly id: string
  readonly name: string
  readonly argumentPieces: readonly string[]
}

/** A completion reply with every default filled in and every streamed string cut into pieces. */
export interface CompletionPlan {
  readonly id: string
  readonly model: string
  readonly reasoningPieces: readonly string[]
  readonly reasoningSignature: string | undefined
  readonly textPieces: readonly string[]
  readonly toolCalls: readonly PlannedToolCall[]
  readonly usage: Usage
  readonly finish: NonNullable<CompletionReply['finish']>
  readonly logprobs: readonly ScriptedLogprob[] | undefined
}

/** Cuts text into `count` pieces of whole code points (fewer when the text is shorter). */
export function splitPieces(text: string, count: number): string[] {
  const points = Array.from(text)
  if (points.length === 0) return []
  const size = Math.ceil(points.length / Math.max(1, count))
  const pieces: string[] = []
  for (let start = 0; start < points.length; start += size) pieces.push(points.slice(start, start + size).join(''))
  return pieces
}

export function planCompletion(reply: CompletionReply, sequence: number, requestModel: string): CompletionPlan {
  const chunks = reply.chunks ?? 3
  const toolCalls = (reply.toolCalls ?? []).map((call, position) => ({
    id: call.id ?? `call_fake_${sequence}_${position}`,
    name: call.name,
    argumentPieces: splitPieces(call.arguments, chunks),
  }))
  const text = reply.text ?? (toolCalls.length === 0 ? 'Hello from the fake upstream.' : '')
  return {
    id: reply.id ?? `fake_${sequence}`,
    model: reply.model ?? requestModel,
    reasoningPieces: splitPieces(reply.reasoning ?? '', chunks),
    reasoningSignature: reply.reasoningSignature,
    textPieces: splitPieces(text, chunks),
    toolCalls,
    usage: makeUsage({ input_tokens: 10, output_tokens: 5, ...reply.usage }),
    finish: reply.finish ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    logprobs: reply.logprobs,
  }
}

/** A deterministic unit-free vector for an input text. */
export function embeddingVector(text: string, dimensions: number): number[] {
  let seed = 7
  for (const char of text) seed = (seed * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003
  return Array.from({ length: dimensions }, (_, i) => ((seed * (i + 1)) % 2000) / 1000 - 1)
}
