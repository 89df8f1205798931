// The rules of the batch routes: submit, read (with the 402 and 410 cases of the spec), list, cancel and
// delete. Execution lives in BatchWorker; this only reads and moves batch rows.
import { randomBytes } from 'node:crypto'
import type { Readable } from 'node:stream'
import type { Clock } from '../domain/clock.ts'
import type { ApiKeyRecord } from '../domain/identity.ts'
import { GatewayError } from '../domain/errors.ts'
import { formatUsd } from '../accounting/format-usd.ts'
import { egressProblem, type EgressPolicy } from '../http/egress-policy.ts'
import { isInternConfined, isVisibleToKey, type FindKeyByHash } from '../identity/is-visible-to-key.ts'
import type { BatchRow, BatchesRepository } from '../store/repositories/batches-repository.ts'
import { isTerminalStatus, listableStatuses, type BatchStatus } from './batch-status.ts'
import { batchView, resultView } from './batch-view.ts'
import type { LinePipelineDeps } from './line-pipelines.ts'
import { parseBatchSubmission } from './parse-batch-submission.ts'

export const retentionMs = 30 * 24 * 60 * 60 * 1000
const windowMs = 24 * 60 * 60 * 1000

export interface BatchServiceDeps {
  readonly batches: BatchesRepository
  readonly clock: Clock
  readonly lines: LinePipelineDeps
  readonly maxBodyBytes: number
  readonly maxRequests: number
  readonly egress: EgressPolicy
  /** Finds the key that submitted a batch, so an intern's own key sees only its intern's batches. */
  readonly findKey: FindKeyByHash
  /** Grants - usage in nano-dollars when credits are enforced; null when they are not. */
  readonly availableBalanceNano: () => Promise<bigint | null>
  /** Wakes the worker after a submit or cancel so it need not wait for its next poll. */
  readonly onChange?: () => void
}

export interface ListBatchesInput {
  readonly limit?: number
  readonly after?: string
  readonly status?: string | readonly string[]
  readonly created_after?: string
  readonly created_before?: string
}

export interface BatchAnswer {
  readonly status: number
  readonly body: Record<string, unknown>
}

export const notFoundMessage = 'Batch not found.'
export const deleteConflictMessage =
  'Only completed, failed, expired, or cancelled batches can be deleted. Wait for the batch to finish and try again.'

export function createBatchService(deps: BatchServiceDeps): BatchService {
  return new BatchService(deps)
}

/**
 * The batch route operations; every one but submit acts only on a batch of the key's workspace, and for an
 * intern's own key only on a batch a key of its intern submitted (any other answers as an unknown id).
 */
export class BatchService {
  readonly #deps: BatchServiceDeps

  constructor(deps: BatchServiceDeps) {
    this.#deps = deps
  }

  async submit(stream: Readable, key: ApiKeyRecord): Promise<Record<string, unknown>> {
    const deps = this.#deps
    const submission = await parseBatchSubmission(stream, {
      lines: deps.lines,
      maxBytes: deps.maxBodyBytes,
      maxLines: deps.maxRequests,
    })
    const refusal = submission.callbackUrl === null ? null : egressProblem(submission.callbackUrl, deps.egress)
    if (refusal !== null)
      throw new GatewayError('invalid_request', `callback_url: refused by the egress policy: ${refusal}`)
    await this.#admit()
    const now = deps.clock.now()
    const row: BatchRow = {
      id: `batch_${randomBytes(12).toString('hex')}`,
      organization_id: key.organizationId,
      workspace_id: key.workspaceId,
      key_hash: key.hash,
      endpoint: submission.endpoint,
      model: submission.model,
      status: 'validating',
      completion_window: submission.completionWindow,
      provider: submission.provider === null ? null : JSON.stringify(submission.provider),
      callback_url: submission.callbackUrl,
      total: submission.lines.length,
      completed: 0,
      failed: 0,
      cost_nano: '0',
      error: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + windowMs).toISOString(),
      finalized_at: null,
      results_deleted_at: null,
      webhook_status: null,
      webhook_attempts: 0,
      webhook_next_at: null,
    }
    await deps.batches.insert(row, submission.lines)
    deps.onChange?.()
    return batchView(row, null)
  }

  /** GET /batches/{id}: 410 after retention, 402 while the finalized cost exceeds the balance. */
  async get(id: string, key: ApiKeyRecord): Promise<BatchAnswer> {
    const row = await this.#owned(id, key)
    if (
      row.results_deleted_at !== null ||
      Date.parse(row.created_at) + retentionMs <= this.#deps.clock.now().getTime()
    ) {
      throw new GatewayError(
        'gone',
        `Batch results expired: results are deleted 30 days after the batch was created (${row.created_at})`,
      )
    }
    if (!isTerminalStatus[row.status as BatchStatus]) return { status: 200, body: batchView(row, null) }
    const balance = BigInt(row.cost_nano) > 0n ? await this.#deps.availableBalanceNano() : null
    if (balance !== null && balance < 0n) return { status: 402, body: batchView(row, null) }
    const items = await this.#deps.batches.results(row.id)
    return {
      status: 200,
      body: batchView(
        row,
        items.map((item) => resultView(row.id, item)),
      ),
    }
  }

  async list(input: ListBatchesInput, key: ApiKeyRecord): Promise<Record<string, unknown>> {
    const limit = input.limit ?? 20
    const statuses = expandStatuses(input.status)
    const after =
      input.after === undefined
        ? undefined
        : await this.#owned(input.after, key).catch(() => {
            throw new GatewayError(
              'invalid_request',
              `after: no batch "${input.after}"; pass the previous page's last_id`,
            )
          })
    const rows = await this.#deps.batches.list({
      workspaceId: key.workspaceId,
      ...(isInternConfined(key) ? { submittedBy: { keyHash: key.hash, internId: key.internId } } : {}),
      limit: limit + 1,
      ...(after === undefined ? {} : { after }),
      ...(statuses === undefined ? {} : { statuses }),
      ...(input.created_after === undefined
        ? {}
        : { createdAfter: parseInstant(input.created_after, 'created_after') }),
      ...(input.created_before === undefined
        ? {}
        : { createdBefore: parseInstant(input.created_before, 'created_before') }),
    })
    const page = rows.slice(0, limit)
    return {
      object: 'list',
      data: page.map((row) => batchView(row, null)),
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
      has_more: rows.length > limit,
    }
  }

  async cancel(id: string, key: ApiKeyRecord): Promise<Record<string, unknown>> {
    const row = await this.#owned(id, key)
    if (row.status === 'cancelling') return batchView(row, null)
    if (isTerminalStatus[row.status as BatchStatus])
      throw new GatewayError('conflict', `Batch ${row.id} is already ${row.status} and cannot be cancelled`)
    const moved = await this.#deps.batches.transition(row.id, ['validating', 'in_progress'], 'cancelling')
    if (!moved) throw new GatewayError('conflict', `Batch ${row.id} finished while cancelling; fetch it again`)
    this.#deps.onChange?.()
    return batchView({ ...row, status: 'cancelling' }, null)
  }

  async delete(id: string, key: ApiKeyRecord): Promise<Record<string, unknown>> {
    const row = await this.#owned(id, key)
    if (!isTerminalStatus[row.status as BatchStatus]) throw new GatewayError('conflict', deleteConflictMessage)
    await this.#deps.batches.delete(row.id)
    return { id: row.id, object: 'batch', deletion: { openrouter: 'deleted' } }
  }

  /** With credits enforced, a batch is admitted only on a positive balance; it then runs all its lines. */
  async #admit(): Promise<void> {
    const balance = await this.#deps.availableBalanceNano()
    if (balance !== null && balance <= 0n)
      throw new GatewayError(
        'payment_required',
        `Insufficient credits: the balance is ${formatUsd(balance)} and a batch needs a positive balance to be admitted; add credits (POST /api/v1/credits/grants) and submit again`,
      )
  }

  async #owned(id: string, key: ApiKeyRecord): Promise<BatchRow> {
    const row = await this.#deps.batches.find(id)
    if (
      row === undefined ||
      row.workspace_id !== key.workspaceId ||
      !(await isVisibleToKey(key, row.key_hash, this.#deps.findKey))
    )
      throw new GatewayError('not_found', notFoundMessage)
    return row
  }
}

/** `in_progress` also matches the transient `finalizing` and `cancelling` (api-reference §8.2). */
function expandStatuses(value: string | readonly string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined
  const given = typeof value === 'string' ? [value] : [...value]
  const expanded: string[] = []
  for (const status of given) {
    if (!(listableStatuses as readonly string[]).includes(status))
      throw new GatewayError('invalid_request', `status: "${status}" is not one of ${listableStatuses.join(', ')}`)
    expanded.push(status)
    if (status === 'in_progress') expanded.push('finalizing', 'cancelling')
  }
  return expanded
}

const maxDateMs = 8.64e15

/** Unix seconds (digits) or an ISO date / date-time, as an ISO instant. */
function parseInstant(value: string, field: string): string {
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value)
  // A Date holds ±8.64e15 ms; beyond it toISOString throws, so a huge number of seconds is refused here.
  if (!Number.isFinite(ms) || Math.abs(ms) > maxDateMs)
    throw new GatewayError(
      'invalid_request',
      `${field}: "${value}" is neither unix seconds (at most ${maxDateMs / 1000}) nor an ISO 8601 date`,
    )
  return new Date(ms).toISOString()
}
