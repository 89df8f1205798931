// How a batch line of each endpoint is checked at submission and run by the worker: the inference
// pipeline in the endpoint's dialect, or the embeddings pipeline. Both answer as their HTTP route would.
import { withFields } from '../domain/with-fields.ts'
import type { DialectName, Dialects } from '../dialects/dialect.ts'
import { checkInputSize } from '../dialects/embeddings/decode-request.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import { GatewayError, isGatewayError } from '../domain/errors.ts'
import {
  createEmbeddingsRunner,
  type EmbeddingsDecoder,
  type EmbeddingsSettings,
} from '../inference/embeddings/run-embeddings.ts'
import type { InferenceDeps } from '../inference/inference-deps.ts'
import { invokeInference } from '../inference/invoke-inference.ts'
import type { BatchEndpoint } from './batch-status.ts'
import { alignmentSettingsOf } from '../inference/alignment/alignment-settings.ts'
import type { CancelSignal } from '../domain/cancellation.ts'

export type LinePipeline =
  { readonly pipeline: 'inference'; readonly dialect: DialectName } | { readonly pipeline: 'embeddings' }

export const endpointPipelines: Readonly<Record<BatchEndpoint, LinePipeline>> = {
  '/v1/chat/completions': { pipeline: 'inference', dialect: 'openai-chat' },
  '/v1/responses': { pipeline: 'inference', dialect: 'openai-responses' },
  '/v1/messages': { pipeline: 'inference', dialect: 'anthropic-messages' },
  '/v1/embeddings': { pipeline: 'embeddings' },
}

export interface LinePipelineDeps {
  readonly dialects: Dialects
  /** `embeddings.max_input_chars` and the request decoder, compiled once for every line. */
  readonly embeddings: { readonly settings: EmbeddingsSettings; readonly decode: EmbeddingsDecoder }
}

export interface LineCall {
  readonly key: ApiKeyRecord
  /** The line body with the batch model (and provider preferences) filled in. */
  readonly body: unknown
  readonly generationId: string
  readonly signal: CancelSignal
}

export interface LineAnswer {
  readonly status: number
  readonly body: unknown
}

/** Refuses a line body as its endpoint's route would refuse it; throws a GatewayError whose message starts with the field. */
export function checkLine(line: LinePipeline, body: unknown, deps: LinePipelineDeps): void {
  switch (line.pipeline) {
    case 'inference':
      deps.dialects[line.dialect].decode(body)
      alignmentSettingsOf(body)
      return
    case 'embeddings':
      checkEmbeddingsLine(body, deps.embeddings)
      return
  }
}

/** Runs a line as the route would, with `inference` carrying the line's own accounting. */
export async function runLine(
  line: LinePipeline,
  call: LineCall,
  deps: LinePipelineDeps,
  inference: InferenceDeps,
): Promise<LineAnswer> {
  const { key, body, generationId, signal } = call
  switch (line.pipeline) {
    case 'inference':
      return invokeInference({ key, dialect: line.dialect, body, generationId, signal }, deps.dialects, inference)
    case 'embeddings': {
      const run = createEmbeddingsRunner(deps.embeddings.settings, inference, deps.embeddings.decode)
      const answer = await run(
        { generationId, requestId: generationId, key, startedAt: inference.clock.now().getTime(), headers: {}, signal },
        body,
      )
      // A 200's body is the answer's JSON text; a result line holds it as a value.
      return typeof answer.body === 'string' ? withFields(answer, { body: JSON.parse(answer.body) as unknown }) : answer
    }
  }
}

function checkEmbeddingsLine(body: unknown, embeddings: LinePipelineDeps['embeddings']): void {
  const decoded = embeddings.decode(body)
  try {
    checkInputSize(decoded, embeddings.settings.maxInputChars)
  } catch (error) {
    throw isGatewayError(error) ? new GatewayError('invalid_request', `input: ${error.message}`) : error
  }
}
