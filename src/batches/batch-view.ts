// The wire shapes of batches: the Batch object of the spec and its `results[]` items.
import type { BatchRow, BatchItemRow } from '../store/repositories/batches-repository.ts'

export interface ItemError {
  readonly type: string
  readonly message: string
  readonly param: string | null
  readonly error_type: string
}

/** What a finished item stores in `batch_items.result`. */
export interface StoredItemResult {
  readonly response: { readonly status_code: number; readonly body: unknown } | null
  readonly error: ItemError | null
}

/**
 * The generation id of one line (`gen-batch-<hex>-<position>`, the shape GET /generation accepts):
 * deterministic, so a retried line settles (and is billed) once.
 */
export function batchGenerationId(batchId: string, position: number): string {
  return `gen-${batchId.replaceAll('_', '-')}-${position}`
}

function unixSeconds(iso: string | null): number | null {
  return iso === null ? null : Math.floor(Date.parse(iso) / 1000)
}

export function batchView(row: BatchRow, results: unknown[] | null): Record<string, unknown> {
  return {
    id: row.id,
    object: 'batch',
    endpoint: row.endpoint,
    model: row.model,
    status: row.status,
    completion_window: row.completion_window,
    created_at: unixSeconds(row.created_at),
    finalized_at: unixSeconds(row.finalized_at),
    expires_at: unixSeconds(row.expires_at),
    request_counts: { total: row.total, completed: row.completed, failed: row.failed },
    error: row.error === null ? null : (JSON.parse(row.error) as unknown),
    callback_url: row.callback_url,
    results,
  }
}

export function resultView(
  batchId: string,
  item: Pick<BatchItemRow, 'custom_id' | 'position' | 'result'>,
): Record<string, unknown> {
  const stored: StoredItemResult =
    item.result === null ? { response: null, error: null } : (JSON.parse(item.result) as StoredItemResult)
  return {
    custom_id: item.custom_id,
    id: batchGenerationId(batchId, item.position),
    error: stored.error,
    response: stored.response,
  }
}
