// Runs one batch line through its endpoint's pipeline (inference or embeddings: routing, fallbacks,
// accounting, generation records) as the submitting key, under a generation id derived from the line,
// and turns the answer into the stored `{response, error}` plus the line's settled cost.
import type { ApiKeyRecord } from '../domain/identity.ts'
import { errorKinds, type ErrorKind } from '../domain/errors.ts'
import type { InferenceDeps } from '../inference/inference-deps.ts'
import type { InferenceAccounting } from '../inference/call/call-policy.ts'
import type { BatchItemRow, BatchRow } from '../store/repositories/batches-repository.ts'
import { apiErrorTypes, errorKindForStatus, isBatchEndpoint } from './batch-status.ts'
import { batchGenerationId, type ItemError, type StoredItemResult } from './batch-view.ts'
import { endpointPipelines, runLine, type LinePipelineDeps } from './line-pipelines.ts'
import type { CancelSignal } from '../domain/cancellation.ts'
import { batchResultBody } from './batch-result-body.ts'
import { runAlignedLine } from './run-aligned-line.ts'
import { invokeInference } from '../inference/invoke-inference.ts'

export interface ItemOutcome {
  readonly result: StoredItemResult
  readonly costNano: bigint
}

export interface RunBatchItemDeps {
  readonly lines: LinePipelineDeps
  readonly inference: InferenceDeps
  readonly findKey: (hash: string) => Promise<ApiKeyRecord | undefined>
  /**
   * Holds a line's worst case with the key limit and budgets but without the credit balance as a limit:
   * the batch was admitted on a positive balance, and its finalized cost is compared with it on GET.
   */
  readonly reserveLine: InferenceAccounting['reserve']
  /** `alignment.evaluator_model`: the model that checks lines' answers against their alignment rules (null: the line's model). */
  readonly evaluatorModel: string | null
}

export type BatchItemRunner = (batch: BatchRow, item: BatchItemRow, signal: CancelSignal) => Promise<ItemOutcome>

export function itemError(kind: ErrorKind, message: string): ItemError {
  return { type: errorKinds[kind].reason, message, param: null, error_type: apiErrorTypes[kind] }
}

/** A line whose every answer broke an alignment rule in enforce mode. */
function blockedError(message: string): ItemError {
  return { type: errorKinds.forbidden.reason, message, param: null, error_type: 'content_policy_violation' }
}

export function createBatchItemRunner(deps: RunBatchItemDeps): BatchItemRunner {
  return async (batch, item, signal) => {
    const line = isBatchEndpoint(batch.endpoint) ? endpointPipelines[batch.endpoint] : null
    if (line === null) return failed('invalid_request', `endpoint ${batch.endpoint} cannot be run by this gateway`)
    const key = await deps.findKey(batch.key_hash)
    if (key === undefined || key.disabled)
      return failed('unauthorized', 'The API key that submitted this batch was deleted or disabled')
    let costNano = 0n
    const { policy } = deps.inference
    const accounting: InferenceAccounting = {
      reserve: (input) => deps.reserveLine(input),
      release: (reservation) => policy.accounting.release(reservation),
      settle: async (reservation, input) => {
        const charge = await policy.accounting.settle(reservation, input)
        costNano += charge.billedNano
        return charge
      },
    }
    const inference: InferenceDeps = { ...deps.inference, policy: { ...policy, accounting } }
    const generationId = batchGenerationId(batch.id, item.position)
    const body = lineBody(batch, item)
    const run = (lineBody: unknown, id: string) =>
      runLine(line, { key, body: lineBody, generationId: id, signal }, deps.lines, inference)
    const answer =
      line.pipeline === 'embeddings'
        ? await run(body, generationId)
        : await runAlignedLine(
            { dialect: line.dialect, key, body, generationId, signal },
            {
              run,
              invoke: (input) => invokeInference(input, deps.lines.dialects, inference),
              evaluatorModel: deps.evaluatorModel,
            },
          )
    if ('blocked' in answer) return { result: { response: null, error: blockedError(answer.blocked) }, costNano }
    if (answer.status === 200)
      return { result: { response: { status_code: 200, body: batchResultBody(answer.body) }, error: null }, costNano }
    const kind = errorKindForStatus(answer.status)
    return {
      result: { response: null, error: itemError(kind, answerMessage(answer.body) ?? errorKinds[kind].defaultMessage) },
      costNano,
    }
  }
}

function failed(kind: ErrorKind, message: string): ItemOutcome {
  return { result: { response: null, error: itemError(kind, message) }, costNano: 0n }
}

function lineBody(batch: BatchRow, item: BatchItemRow): Record<string, unknown> {
  const body = JSON.parse(item.body) as Record<string, unknown>
  if (batch.provider === null) return body
  const given =
    typeof body.provider === 'object' && body.provider !== null ? (body.provider as Record<string, unknown>) : {}
  return { ...body, provider: { ...given, ...(JSON.parse(batch.provider) as Record<string, unknown>) } }
}

/** `error.message` of an OpenAI- or Anthropic-shaped error body. */
function answerMessage(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null
  const error = (body as { error?: unknown }).error
  if (typeof error !== 'object' || error === null) return null
  const message = (error as { message?: unknown }).message
  return typeof message === 'string' ? message : null
}
