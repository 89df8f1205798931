// A dialect is one public wire format clients speak (OpenAI Responses, OpenAI Chat Completions,
// Anthropic Messages). It is a pure translator, no I/O:
//
// - `decode(body)` checks the body against `requestSchema` plus the rules a schema cannot express and
//   returns the canonical call (without `model`: the inference layer picks it per endpoint), the model
//   list, the request-level options and what the response must echo. Every refusal is a
//   `GatewayError('invalid_request')` whose message names the field and the limit. The HTTP layer may
//   attach `requestSchema` to its route for OpenAPI only; `decode` is the one validation.
// - `encodeResult` turns a canonical result into the format's non-streaming JSON body.
// - `createStreamEncoder` returns a per-request object that turns canonical stream events into SSE
//   text. `start()` opens the stream, `push()` translates one event, `finish()` closes it with the
//   final usage and cost, `fail()` sends the format's error event and closes it; `debug()` (before
//   `start()`) echoes the upstream body when the request asked for it. A `stream-error`
//   event pushed is the same as `fail()`. After the stream is closed every call returns ''.
//   OpenAI formats end with `data: [DONE]`; Anthropic's does not.
// - `encodeError` gives the status and body of an error answered before any stream started.
//
// Reasoning between formats: each item keeps the `origin` API that produced it. A format that has a
// native slot for the origin's proof (Responses `encrypted_content` for openai-responses, Anthropic
// `signature` for anthropic, Chat `reasoning_details[].signature/format`) carries it as is; otherwise the
// proof is sealed into an opaque `swy1:` token (see reasoning-seal.ts) placed in that slot, so a client
// that sends the turn back through any dialect restores the item with its origin, and adapters drop
// reasoning of a foreign origin as before. Tool results keep their call id across formats; the tool name
// is filled from the matching call when the format does not carry it.

import type { TSchema } from 'typebox'
import type { ErrorKind, GatewayError } from '../domain/errors.ts'
import type { CanonicalCall } from '../domain/inference/call.ts'
import type { RequestOptions } from '../domain/inference/request-options.ts'
import type { CanonicalResult } from '../domain/inference/result.ts'
import type { StreamEvent } from '../domain/inference/stream-event.ts'
import type { Usage } from '../domain/inference/usage.ts'

export type DialectName = 'openai-responses' | 'openai-chat' | 'anthropic-messages'

export interface DecodedRequest {
  /** The canonical call; the inference layer sets `model` per endpoint. */
  readonly call: Omit<CanonicalCall, 'model'>
  /** `model` then `models` fallbacks, deduplicated; empty when the body names none (workspace default). */
  readonly models: readonly string[]
  readonly stream: boolean
  readonly options: RequestOptions
  /** Request parameters in use, for `provider.require_parameters`. */
  readonly usedParameters: readonly string[]
  /** Request fields the response object echoes (Responses API); empty for other formats. */
  readonly echo: Readonly<Record<string, unknown>>
  /** `openrouter:<tool>` types named in `tools` (prefix kept, as `disabled_server_tools` lists them), in order. */
  readonly serverTools: readonly string[]
  /** Each server tool's settings: the tool object's other fields, keyed by its `type`. */
  readonly serverToolSettings: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

export interface EncodeContext {
  readonly generationId: string
  /** The model slug the client asked for (or was routed to). */
  readonly model: string
  /** The provider slug that answered. */
  readonly provider: string
  /** Unix seconds. */
  readonly createdAt: number
  readonly costUsd: number | null
  readonly isByok: boolean
  /** `openrouter_metadata`, only when the client opted in. */
  readonly metadata?: Readonly<Record<string, unknown>>
  /** `DecodedRequest.echo` of the request being answered. */
  readonly echo?: Readonly<Record<string, unknown>>
  /** Unix seconds at completion (Responses `completed_at`); `createdAt` when absent. */
  readonly completedAt?: number
  /**
   * Why the gateway ended the answer early (a server-tool loop stopped by a spend limit, e.g. `key_limit`).
   * Responses reports status `incomplete` with this `incomplete_details.reason`; the other formats have no
   * such field and report the result's finish reason (`length`: `length` / `max_tokens`).
   */
  readonly incompleteReason?: string
  /**
   * The upstream speaks this format and its stream passes through: the encoder writes the events' `native-frame`s
   * with only the gateway's fields rewritten, and reads the other events only for the usage and the outcome.
   */
  readonly passThrough?: boolean
}

export interface StreamFinish {
  readonly usage: Usage
  readonly costUsd: number | null
  readonly metadata?: Readonly<Record<string, unknown>>
  /** Unix seconds at completion. */
  readonly completedAt?: number
  /** Extra `usage` fields (Responses `server_tool_use_details` after a server-tool loop). */
  readonly usageExtra?: Readonly<Record<string, unknown>>
  /** As `EncodeContext.incompleteReason`. */
  readonly incompleteReason?: string
}

export interface StreamEncoder {
  /**
   * `debug.echo_upstream_body`: the body sent upstream (never credentials: they travel in headers),
   * as the format's debug frame; sent before `start()`, so it is the stream's first event.
   */
  debug(upstreamBody: Readonly<Record<string, unknown>>): string
  start(): string
  push(event: StreamEvent): string
  /**
   * Formats that carry server-tool items (Responses): reports an item the gateway produced at output
   * position `index` — `added` when it starts, `done` with its final fields (kept in the final output).
   */
  pushOutputItem?(index: number, item: Readonly<Record<string, unknown>>, phase: 'added' | 'done'): string
  finish(final: StreamFinish): string
  fail(kind: ErrorKind, message: string): string
}

export interface EncodedError {
  readonly status: number
  readonly body: Record<string, unknown>
}

export interface Dialect {
  readonly name: DialectName
  readonly requestSchema: TSchema
  decode(body: unknown): DecodedRequest
  encodeResult(result: CanonicalResult, context: EncodeContext): Record<string, unknown>
  createStreamEncoder(context: EncodeContext): StreamEncoder
  encodeError(error: GatewayError): EncodedError
}

/** Every client dialect by name (dialects/registry.ts builds it). */
export type Dialects = Readonly<Record<DialectName, Dialect>>
