// The generation record's fields every call fills the same way, from the request and how it ended:
// ids, owner, client headers, timing and status. Each entry point adds what its call learned.
import type { GatewayError } from '../../domain/errors.ts'
import type { GenerationContent, GenerationRecord } from '../../generations/generation-record.ts'
import type { CallRequest } from './call-request.ts'
import { isoTime } from '../../domain/iso-time.ts'

type BaseField =
  | 'id'
  | 'requestId'
  | 'organizationId'
  | 'workspaceId'
  | 'keyHash'
  | 'status'
  | 'cancelled'
  | 'isByok'
  | 'errorStatus'
  | 'errorMessage'
  | 'httpReferer'
  | 'userAgent'
  | 'createdAt'

export type RecordFields = Omit<GenerationRecord, BaseField>

export function recordOf(
  request: CallRequest,
  outcome: { readonly cancelled: boolean; readonly error: GatewayError | null },
  fields: RecordFields,
): GenerationRecord {
  return {
    id: request.generationId,
    requestId: request.requestId,
    organizationId: request.key.organizationId,
    workspaceId: request.key.workspaceId,
    keyHash: request.key.hash,
    ...fields,
    cancelled: outcome.cancelled,
    status: outcome.cancelled ? 'cancelled' : outcome.error === null ? 'completed' : 'failed',
    isByok: false,
    errorStatus: outcome.error?.status ?? null,
    errorMessage: outcome.error?.message ?? null,
    httpReferer: header(request, 'http-referer'),
    userAgent: header(request, 'user-agent'),
    createdAt: isoTime(request.startedAt),
  }
}

/** The content's error part: what failed, and at which provider. */
export function contentError(error: GatewayError | null, provider: string | null): GenerationContent['error'] {
  return error === null ? null : { status: error.status, message: error.message, provider_name: provider }
}

function header(request: CallRequest, name: string): string | null {
  const value = request.headers[name]
  return typeof value === 'string' ? value.slice(0, 512) : null
}
