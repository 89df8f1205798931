// How one fake upstream speaks its API: which paths it serves and how it renders replies.

import type { CompletionPlan } from './scripted-reply.ts'

export type FakeRoute =
  | { readonly kind: 'completion'; readonly stream: boolean; readonly model: string }
  | {
      readonly kind: 'embeddings'
      readonly inputs: readonly string[]
      readonly model: string
      readonly batch: boolean
      /** OpenAI's encoding_format: base64 answers each vector as little-endian float32 bytes. */
      readonly base64?: boolean
    }

export interface FakeDialect {
  /** Appended to the origin to form the provider's base_url. */
  readonly basePath: string
  /** Routes a POST by its path (query included) and parsed body; undefined = 404. */
  route(path: string, body: RoutedBody): FakeRoute | undefined
  completionJson(plan: CompletionPlan): unknown
  /** Whole SSE frames, each ending with its blank line. */
  completionFrames(plan: CompletionPlan): string[]
  errorBody(status: number, message: string, errorType: string | undefined): unknown
  embeddingsJson(
    vectors: readonly (readonly number[])[],
    route: Extract<FakeRoute, { kind: 'embeddings' }>,
    reportedTokens?: number,
  ): unknown
}

/** The members of a client's request body that a fake routes on; any of them may be absent or of any type. */
export interface RoutedBody {
  readonly model?: unknown
  readonly stream?: unknown
  readonly input?: unknown
  readonly content?: unknown
  readonly requests?: unknown
  readonly encoding_format?: unknown
}

/** A parsed body as a `RoutedBody`: a body that is not a JSON object has none of its members. */
export function routedBody(body: unknown): RoutedBody {
  return typeof body === 'object' && body !== null ? body : {}
}

/** One member of a parsed JSON value, undefined when the value is not an object. */
export function memberOf(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined
}

export function sseFrame(data: unknown, event?: string, lineEnd = '\n'): string {
  const body = typeof data === 'string' ? data : JSON.stringify(data)
  return `${event === undefined ? '' : `event: ${event}${lineEnd}`}data: ${body}${lineEnd}${lineEnd}`
}

export function inputsOf(input: unknown): string[] {
  if (typeof input === 'string') return [input]
  return Array.isArray(input) ? input.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))) : []
}
