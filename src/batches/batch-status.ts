// The closed sets of batches: statuses, endpoints, and how an error kind reads as an ApiErrorType.
import type { ErrorKind } from '../domain/errors.ts'

export type BatchStatus =
  'validating' | 'in_progress' | 'finalizing' | 'completed' | 'failed' | 'expired' | 'cancelling' | 'cancelled'

export const isTerminalStatus: Readonly<Record<BatchStatus, boolean>> = {
  validating: false,
  in_progress: false,
  finalizing: false,
  completed: true,
  failed: true,
  expired: true,
  cancelling: false,
  cancelled: true,
}

/** Statuses a list may filter by (`finalizing` and `cancelling` are reported inside `in_progress`). */
export const listableStatuses = ['validating', 'in_progress', 'completed', 'failed', 'expired', 'cancelled'] as const

export const batchEndpoints = ['/v1/chat/completions', '/v1/responses', '/v1/messages', '/v1/embeddings'] as const

export type BatchEndpoint = (typeof batchEndpoints)[number]

export function isBatchEndpoint(value: unknown): value is BatchEndpoint {
  return (batchEndpoints as readonly unknown[]).includes(value)
}

/** Webhook event per terminal status. */
export const webhookEvents: Readonly<Record<'completed' | 'failed' | 'expired' | 'cancelled', string>> = {
  completed: 'batch.completed',
  failed: 'batch.failed',
  expired: 'batch.expired',
  cancelled: 'batch.cancelled',
}

/** `results[].error.error_type` (api-reference's ApiErrorType) for each gateway error kind. */
export const apiErrorTypes: Readonly<Record<ErrorKind, string>> = {
  invalid_request: 'invalid_request',
  unauthorized: 'authentication',
  payment_required: 'payment_required',
  forbidden: 'permission_denied',
  not_found: 'not_found',
  method_not_allowed: 'invalid_request',
  timeout: 'timeout',
  conflict: 'precondition_failed',
  gone: 'not_found',
  payload_too_large: 'payload_too_large',
  unsupported_media_type: 'invalid_request',
  unprocessable: 'unprocessable',
  idempotency_key_reused: 'invalid_request',
  rate_limited: 'rate_limit_exceeded',
  client_closed: 'timeout',
  internal: 'server',
  upstream_error: 'provider_unavailable',
  unavailable: 'provider_unavailable',
  upstream_timeout: 'timeout',
  origin_timeout: 'timeout',
  upstream_overloaded: 'provider_overloaded',
}

const kindByStatus: ReadonlyMap<number, ErrorKind> = new Map<number, ErrorKind>([
  [400, 'invalid_request'],
  [401, 'unauthorized'],
  [402, 'payment_required'],
  [403, 'forbidden'],
  [404, 'not_found'],
  [408, 'timeout'],
  [409, 'conflict'],
  [413, 'payload_too_large'],
  [422, 'unprocessable'],
  [429, 'rate_limited'],
  [499, 'client_closed'],
  [500, 'internal'],
  [502, 'upstream_error'],
  [503, 'unavailable'],
  [504, 'upstream_timeout'],
  [524, 'origin_timeout'],
  [529, 'upstream_overloaded'],
])

/** The error kind an HTTP status of a failed line stands for. */
export function errorKindForStatus(status: number): ErrorKind {
  return kindByStatus.get(status) ?? (status >= 500 ? 'upstream_error' : 'invalid_request')
}
