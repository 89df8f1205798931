// GET /key: the calling key's own view (api-reference §3.3). No hash, name or disabled flag; the legacy
// `rate_limit` object and the free-model counter are fixed values (-1 = not limited here).
import type { ApiKeyRecord } from '../../domain/identity.ts'
import type { KeyUsageFields } from '../../accounting/key-usage.ts'
import type { CurrentKey } from './schema.ts'

export function toCurrentKey(key: ApiKeyRecord, usage: KeyUsageFields, workspaceId: string | null): CurrentKey {
  const isManagement = key.kind === 'management'
  return {
    label: key.label,
    limit: key.limitUsd === null ? null : Number(key.limitUsd),
    limit_reset: key.limitReset,
    include_byok_in_limit: key.includeByokInLimit,
    ...usage,
    is_free_tier: false,
    is_management_key: isManagement,
    is_provisioning_key: isManagement,
    creator_user_id: key.creatorUserId,
    expires_at: key.expiresAt,
    organization_id: key.organizationId,
    workspace_id: workspaceId,
    allowed_data_regions: ['global'],
    free_model_daily_requests: { limit: -1, remaining: -1, used: 0 },
    rate_limit: { requests: -1, interval: '10s', note: 'This field is deprecated and safe to ignore.' },
  }
}
